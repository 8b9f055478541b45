/**
 * A second studio process for specs that need another configuration than the main one (login
 * required, a fresh database, a broken database URL…): same build, its own port and environment.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../tests/free-port";

export type SpawnedStudio = { base: string; output: () => string; stop: () => Promise<void> };

/** Variables of the main e2e studio that must not leak into a differently configured one. */
const CLEARED = [
  "ENVSTUDIO_ADMIN_EMAIL",
  "ENVSTUDIO_ADMIN_PASSWORD",
  "ENVSTUDIO_REQUIRE_LOGIN",
  "ENVSTUDIO_PUBLIC_URL",
  "DATABASE_URL",
];

/** Wildcard binds are polled (and by default addressed) on loopback. */
const reachableHost = (host: string) => (host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host);

/**
 * `how: "web"` (default) runs the studio's web server alone (scripts/start-web.ts, what `npm start`
 * serves with); `how: "npm-start"` runs scripts/start.ts (migrations, first-start admin, worker) the
 * way `npm start` does; `how: "next"` runs plain `next start`, which tells the app no peer address.
 * `host` is the address to listen on; HOST is set to it unless `hostVariable` says otherwise (null:
 * unset). Resolves once /api/health answers at all.
 */
export async function spawnStudio(opts: {
  host?: string;
  hostVariable?: string | null;
  env: Record<string, string>;
  how?: "web" | "next" | "npm-start";
  /** Command-line arguments after the script (e.g. `--demo` for npm-start). */
  args?: string[];
}): Promise<SpawnedStudio> {
  const host = opts.host ?? "127.0.0.1";
  const port = await freePort();
  const base = `http://${reachableHost(host)}:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    PORT: String(port),
  };
  for (const name of CLEARED) delete env[name];
  const hostVariable = opts.hostVariable === undefined ? host : opts.hostVariable;
  if (hostVariable === null) delete env.HOST;
  else env.HOST = hostVariable;
  Object.assign(env, opts.env);
  const script = { web: "scripts/start-web.ts", "npm-start": "scripts/start.ts" } as const;
  const how = opts.how ?? "web";
  const args =
    how === "next"
      ? [path.resolve("node_modules/next/dist/bin/next"), "start", "-H", host, "-p", String(port)]
      : ["--import", "tsx", path.resolve(script[how]), ...(opts.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the studio on ${base} exited:\n${output}`);
    try {
      await fetch(`${base}/api/health`);
      return { base, output: () => output, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await stop();
  throw new Error(`the studio on ${base} did not start:\n${output}`);
}
