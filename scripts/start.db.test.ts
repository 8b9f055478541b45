/**
 * `npm start` with bad configuration must say what is wrong in one clear message and exit non-zero,
 * before building anything, and never print the database password or a stack trace.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../tests/free-port";

const ROOT = path.resolve(import.meta.dirname, "..");

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        ENVSTUDIO_SEED_SAMPLES: "0",
        ENVSTUDIO_START_WORKER: "0",
        NEXT_TELEMETRY_DISABLED: "1",
        ...env,
      },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const noStackTrace = (output: string) => expect(output).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);

describe("npm start with bad configuration", () => {
  it("unreachable database: names host, port and database, hides the password", async () => {
    const { code, output } = await start({
      DATABASE_URL: "postgresql://alice:s3cret-pw@127.0.0.1:1/studio",
      PORT: String(await freePort()),
    });
    expect(code).not.toBe(0);
    expect(output).toContain("127.0.0.1:1/studio");
    expect(output).toMatch(/connection refused/i);
    expect(output).not.toContain("s3cret-pw");
    noStackTrace(output);
  });

  it("a DATABASE_URL that is not a postgresql:// URL", async () => {
    const { code, output } = await start({
      DATABASE_URL: "mysql://root@localhost/db",
      PORT: String(await freePort()),
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/DATABASE_URL must be a postgresql:\/\/ URL/);
    noStackTrace(output);
  });

  it("wrong credentials are reported as such", async () => {
    const { code, output } = await start({
      DATABASE_URL: "postgresql://no_such_role_xyz:pw@127.0.0.1:5432/postgres",
      PORT: String(await freePort()),
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/refused the credentials|no_such_role_xyz|does not exist/);
    expect(output).not.toContain(":pw@");
    noStackTrace(output);
  });

  it("port already in use", async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", r));
    try {
      const { code, output } = await start({ PORT: String(port), HOST: "127.0.0.1" });
      expect(code).not.toBe(0);
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      noStackTrace(output);
    } finally {
      blocker.close();
    }
  });

  it("invalid PORT value", async () => {
    const { code, output } = await start({ PORT: "eighty" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/Invalid configuration:[\s\S]*PORT/);
    noStackTrace(output);
  });
});
