# One image for every part of a multi-machine EnvStudio: the studio (`npm start`), job workers
# (`npm run worker`) and RL environment server replicas (`npx envstudio serve`). Each part is chosen
# by the container's command (deploy/compose.yaml). Uses only the npm and Debian registries.
FROM node:24-bookworm-slim

# python3 and bubblewrap: the `bwrap` sandbox backend and the second jail around the Pyodide host
# (used where the container runtime allows user namespaces; every defence holds without it).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 bubblewrap \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1

# Dependencies first, so the layer is reused while only sources change. `postinstall` generates the
# Prisma client from prisma/ and prisma.config.ts.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts/unlink-node-bin.mjs scripts/no-schema-engine.sh ./scripts/
RUN npm ci

COPY . .

# The studio builds the app on its first start (`npm start` rebuilds only when sources changed);
# keep /app/.next on a volume so a restarted studio starts at once. Workers and serve replicas
# never build.
EXPOSE 3000 8100
CMD ["npm", "start"]
