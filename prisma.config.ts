import path from "node:path";
import { defineConfig } from "prisma/config";

// Prisma 7's CLI fetches a native schema engine from outside the npm registry before
// generate/validate/format/migrate. generate/validate/format never use it: point the CLI at a stub
// that fails loudly if something does. Migrations run through scripts/db.ts (wasm engine).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, "scripts/no-schema-engine.sh");
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  // env("DATABASE_URL") would throw when unset and break `prisma generate` in postinstall.
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
