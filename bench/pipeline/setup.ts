/**
 * What `npm run bench -- pipeline` sets up before its clock starts: a scratch database, the
 * scripted endpoint in its own process, and a booted, warmed sandbox pool.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { withDatabase } from "../../lib/db/database-url";
import { deployMigrations } from "../../lib/db/migrate";
import type { SandboxRunner } from "../../lib/sandbox";
import type { EndpointMessage, EndpointRecord } from "./fake-endpoint";

export async function scratchDatabase() {
  const admin =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `bench_pipeline_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = withDatabase(admin, name);
  await deployMigrations(url);
  const drop = async () => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  };
  return { url, drop };
}

export type Endpoint = { url: string; records: () => Promise<EndpointRecord[]>; stop: () => void };

/** Forks bench/pipeline/fake-endpoint.ts and waits for its URL. */
export async function startEndpoint(latencyMs: number): Promise<Endpoint> {
  const child = fork(fileURLToPath(new URL("./fake-endpoint.ts", import.meta.url)), [String(latencyMs)], {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  const next = () =>
    new Promise<EndpointMessage>((resolve, reject) => {
      child.once("message", (m) => resolve(m as EndpointMessage));
      child.once("exit", (code) => reject(new Error(`the scripted endpoint exited (${code})`)));
    });
  const first = await next();
  if (!("url" in first)) throw new Error("the scripted endpoint did not report its URL");
  return {
    url: first.url,
    records: async () => {
      const reply = next();
      child.send("records");
      const message = await reply;
      return "records" in message ? message.records : [];
    },
    stop: () => void child.send("stop"),
  };
}

/**
 * Boots the whole pool (its size plus spares) and runs the analysis path on every worker a few
 * times. Booting only as many workers as the first requests need left the rest booting on the
 * clock (~0.5 s of CPU each, in the busiest seconds of the run), and a worker's first analyses run
 * several times slower than later ones.
 */
export async function warmSandbox(
  runner: SandboxRunner,
  sample: { stateCode: string; className: string },
  capacity: number,
) {
  const analyzeOnEveryWorker = (n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        runner.analyze({ source: sample.stateCode, className: sample.className }),
      ),
    );
  await analyzeOnEveryWorker(capacity);
  let stats = await runner.stats();
  for (; stats.readyMs.length < stats.workers; stats = await runner.stats())
    await new Promise((r) => setTimeout(r, 100));
  // All workers idle: n concurrent requests land on n different workers.
  for (let round = 0; round < 3; round += 1) await analyzeOnEveryWorker(stats.workers);
}
