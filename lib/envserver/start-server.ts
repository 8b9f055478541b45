/** Wires catalog + sandbox + sessions + HTTP server, with the idle reaper; returns a handle to stop it. */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { SandboxRunner } from "../sandbox";
import type { Catalog } from "./catalog";
import { createEnvServer } from "./http-server";
import { createSessions } from "./sessions";

export type ServeOptions = { port: number; host: string; token?: string; maxSessions: number; maxSteps: number; idleMs: number };

export function serveOptionsFromEnv(env: Record<string, string | undefined> = process.env): Omit<ServeOptions, "port" | "host"> {
  const num = (name: string, fallback: number) => {
    const value = Number(env[name] ?? "");
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return { token: env.ENVSTUDIO_SERVE_TOKEN || undefined, maxSessions: num("ENVSTUDIO_SERVE_MAX_SESSIONS", 64), maxSteps: num("ENVSTUDIO_SERVE_MAX_STEPS", 40), idleMs: num("ENVSTUDIO_SERVE_IDLE_MS", 300_000) };
}

export async function startEnvServer(catalog: Catalog, sandbox: SandboxRunner, opts: ServeOptions) {
  const token = opts.token ?? randomBytes(24).toString("base64url");
  const sessions = createSessions(catalog, sandbox, opts);
  const { server, closeSockets } = createEnvServer(catalog, sessions, token);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const reaper = setInterval(() => void sessions.reap(), Math.max(1000, Math.min(opts.idleMs / 2, 30_000)));
  reaper.unref();
  return {
    token,
    port: (server.address() as AddressInfo).port,
    sessions,
    stop: async () => {
      clearInterval(reaper);
      closeSockets();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sessions.closeAll();
    },
  };
}
