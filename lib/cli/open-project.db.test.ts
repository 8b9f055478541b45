/**
 * Without DATABASE_URL the CLI uses the embedded database of ENVSTUDIO_DATA_DIR, as `npm start`
 * does: it joins a running one (and leaves it running), or starts, migrates and stops its own,
 * unless another process still uses it.
 * Regression: `envstudio dataset|export|import|serve` failed with "DATABASE_URL is not set".
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../tests/free-port";
import { createDb } from "../db";
import { getDefaultProject } from "../projects/server/get-default-project";
import { resolveDatabaseUrl } from "../db/server/resolve-database";
import { stopEmbeddedPostgres } from "../db/server/embedded-postgres";
import { registerEmbeddedUser } from "../db/server/embedded-users";
import { main } from "./main";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-cli-embedded-"));
fs.chmodSync(dataDir, 0o755); // the server runs as an unprivileged user when we are root
const saved = {
  url: process.env.DATABASE_URL,
  dir: process.env.ENVSTUDIO_DATA_DIR,
  port: process.env.ENVSTUDIO_PG_PORT,
};

beforeAll(async () => {
  delete process.env.DATABASE_URL;
  process.env.ENVSTUDIO_DATA_DIR = dataDir;
  process.env.ENVSTUDIO_PG_PORT = String(await freePort());
});
afterAll(async () => {
  await stopEmbeddedPostgres(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const [key, value] of [
    ["DATABASE_URL", saved.url],
    ["ENVSTUDIO_DATA_DIR", saved.dir],
    ["ENVSTUDIO_PG_PORT", saved.port],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function isUp(url: string): Promise<boolean> {
  const db = createDb(url, 1);
  try {
    await db.$queryRaw`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await db.$disconnect().catch(() => undefined);
  }
}

describe("CLI database lookup without DATABASE_URL", () => {
  it("starts, migrates and stops its own embedded server when none is running", async () => {
    expect(await cli("dataset", "list")).toMatchObject({ code: 0, out: "", err: "" });
    const check = await resolveDatabaseUrl({ migrate: false, dataDir });
    expect(check.startedByUs).toBe(true); // the CLI had stopped it
    const db = createDb(check.url, 1);
    expect(await db.project.count()).toBe(1); // migrated, default project created
    await db.$disconnect();
    await check.stop();
  }, 120_000);

  it("joins the server `npm start` runs and leaves it running", async () => {
    const studio = await resolveDatabaseUrl({ migrate: true, dataDir }); // what scripts/start.ts does
    expect(studio.embedded).toBe(true);
    const db = createDb(studio.url, 1);
    await db.dataset.create({ data: { projectId: (await getDefaultProject(db)).id, name: "first" } });
    await db.$disconnect();
    const listed = await cli("dataset", "list");
    expect(listed).toMatchObject({ code: 0, err: "" });
    expect(listed.out).toBe("first\tv0\t0 scenarios");
    expect(await isUp(studio.url)).toBe(true);
    await studio.stop();
  }, 120_000);

  it("leaves the server it started running while another process still uses it", async () => {
    // Another live process registered as a user (a studio started while the CLI ran, say).
    const other = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      if (other.pid === undefined) throw new Error("could not start sleep");
      registerEmbeddedUser(dataDir, other.pid);
      expect(await cli("dataset", "list")).toMatchObject({ code: 0, err: "" });
      const check = await resolveDatabaseUrl({ migrate: false, dataDir });
      expect(check.startedByUs).toBe(false); // still running: the CLI only left it
      await check.stop();
    } finally {
      const exited = new Promise((resolve) => other.once("exit", resolve));
      other.kill();
      await exited;
    }
  }, 120_000);
});
