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

/**
 * `how: "next"` runs `next start` directly; `how: "npm-start"` runs scripts/start.ts (migrations,
 * first-start admin, worker) the way `npm start` does. Resolves once /api/health answers at all.
 */
export async function spawnStudio(opts: {
  host?: string;
  env: Record<string, string>;
  how?: "next" | "npm-start";
}): Promise<SpawnedStudio> {
  const host = opts.host ?? "127.0.0.1";
  const port = await freePort();
  const base = `http://${host}:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: host,
    PORT: String(port),
  };
  for (const name of CLEARED) delete env[name];
  Object.assign(env, opts.env);
  const args =
    opts.how === "npm-start"
      ? ["--import", "tsx", path.resolve("scripts/start.ts")]
      : [path.resolve("node_modules/next/dist/bin/next"), "start", "-H", host, "-p", String(port)];
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
