/**
 * The studio as a process: started twice on the same embedded data directory it keeps its data
 * (and does not seed the samples twice); started with DATABASE_URL it uses that server instead.
 * Runs after the main webServer has built the app, so each start here takes seconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { freePort } from "../tests/free-port";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER_PG = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

type Started = { child: ChildProcess; base: string; output: () => string };

async function startStudio(port: number, env: Record<string, string>): Promise<Started> {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      ENVSTUDIO_START_WORKER: "0",
      ...env,
    },
  });
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`studio exited early:\n${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { child, base, output: () => output };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill("SIGKILL");
  throw new Error(`studio did not become healthy:\n${output}`);
}

async function stopStudio(s: Started): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await exited;
}

async function environmentNames(base: string): Promise<string[]> {
  const res = await fetch(`${base}/api/environments?pageSize=100`);
  const body = (await res.json()) as { items: { name: string }[] };
  return body.items.map((i) => i.name).sort();
}

test.describe.configure({ mode: "serial", timeout: 300_000 });

test("embedded database: data survives a stop and a start, samples are seeded once", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-lifecycle-"));
  fs.chmodSync(dataDir, 0o755);
  const [webPort, pgPort] = [await freePort(), await freePort()];
  const env = { ENVSTUDIO_DATA_DIR: dataDir, ENVSTUDIO_PG_PORT: String(pgPort), DATABASE_URL: "" };
  try {
    const first = await startStudio(webPort, env);
    const seeded = await environmentNames(first.base);
    expect(seeded.length).toBeGreaterThanOrEqual(3);
    // Write a row the way any client would, through the embedded server's own URL.
    const password = fs.readFileSync(path.join(dataDir, "pg-password"), "utf8").trim();
    const client = new pg.Client({
      connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/envstudio`,
    });
    await client.connect();
    await client.query(
      `insert into "Environment"(id, "projectId", slug, name, origin, "updatedAt") select 'kept-env', id, 'kept', 'Kept across restarts', 'MANUAL', now() from "Project" where slug = 'default'`,
    );
    await client.end();
    await stopStudio(first);

    const second = await startStudio(webPort, env);
    expect(await environmentNames(second.base)).toEqual([...seeded, "Kept across restarts"].sort());
    await stopStudio(second);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("DATABASE_URL: the studio runs on an existing PostgreSQL server", async () => {
  const database = `envstudio_e2e_${process.pid}`;
  const admin = new pg.Client({ connectionString: SERVER_PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}"`);
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(SERVER_PG);
  url.pathname = `/${database}`;
  try {
    const studio = await startStudio(await freePort(), { DATABASE_URL: url.toString() });
    expect((await environmentNames(studio.base)).length).toBeGreaterThanOrEqual(3);
    expect(studio.output()).toContain("PostgreSQL ready");
    await stopStudio(studio);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
});
