/**
 * `npm run bench -- pipeline`: how well a SkelBuilder run keeps the LLM endpoint busy. A scripted
 * OpenAI-compatible server answers every request after a fixed latency (200 ms); 20 typed ideas run
 * through the whole chain on one in-process worker with LLM concurrency C.
 *   ideal = (LLM requests × latency) / C  — sequential LLM latency per environment chain × envs / C
 *   share of concurrency used = ideal / wall (target ≥ 90 %)
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import pg from "pg";
import { createDb } from "../lib/db";
import { withDatabase } from "../lib/db/database-url";
import { deployMigrations } from "../lib/db/migrate";

const LATENCY_MS = 200;
const IDEAS = 20;
const CONCURRENCY = Number(process.env.BENCH_LLM_CONCURRENCY ?? 8);
/** The product default (spec §4.2): the quality loop is most of an environment's LLM work. */
const ROUNDS = Number(process.env.BENCH_QUALITY_ROUNDS ?? 30);

async function scratchDatabase() {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
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

export async function main() {
  // Configuration is read when the modules load, so set it before importing them.
  process.env.LLM_CONCURRENCY = String(CONCURRENCY);
  process.env.PIPELINE_JOB_CONCURRENCY ??= String(IDEAS);
  // A quality check holds a sandbox episode for its whole loop: one worker per concurrent check.
  process.env.SANDBOX_POOL_SIZE ??= String(IDEAS + 2);
  const { startFakeOpenAi } = await import("../tests/fake-openai/server");
  const { createPipelineScript } = await import("../tests/fake-openai/pipeline-script");
  const { loadSampleEnv } = await import("../tests/fake-openai/sample-env");
  const sample = loadSampleEnv("library-lending", { operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"] });
  const fake = await startFakeOpenAi({ script: createPipelineScript([sample]), latencyMs: LATENCY_MS });
  process.env.OPENAI_BASE_URL = fake.url;
  process.env.OPENAI_API_KEY = "bench";
  const { url, drop } = await scratchDatabase();
  const db = createDb(url, 8);
  const { startWorker } = await import("../lib/jobs/worker");
  const { createPipelineStepJob } = await import("../lib/pipeline/server/step-job");
  const { createRun } = await import("../lib/pipeline/server/create-run");
  const { getRunProgress } = await import("../lib/pipeline/server/get-run");
  const { buildRunConfig } = await import("../lib/pipeline/run-config");
  const { getSandboxRunner, closeSandboxRunner } = await import("../lib/sandbox");
  const worker = await startWorker(url, [createPipelineStepJob(() => db)]);
  try {
    // Boot the sandbox pool and load the step handler first: one-off start-up is not pipeline throughput.
    await import("../lib/pipeline/server/run-step");
    await Promise.all(Array.from({ length: IDEAS }, () => getSandboxRunner().analyze({ source: "class A:\n    pass\n", className: "A" })));
    const project = await db.project.create({ data: { slug: `bench-${randomBytes(3).toString("hex")}`, name: "bench" } });
    const ideas = Array.from({ length: IDEAS }, (_, i) => `Library lending desk number ${i + 1} with members, loans and fines`);
    const config = buildRunConfig({ defaultModel: "bench-main", checkModel: "bench-check", embeddingModel: null }, { qualityRounds: ROUNDS });
    const started = Date.now();
    const run = await createRun(db, worker.boss, { projectId: project.id, input: { kind: "ideas", ideas }, config });
    let progress = await getRunProgress(db, run.id);
    while (!progress.run.isTerminal) {
      await new Promise((r) => setTimeout(r, 100));
      progress = await getRunProgress(db, run.id);
    }
    const wallMs = Date.now() - started;
    if (process.env.BENCH_DEBUG) {
      const reqs = fake.chatRequests();
      console.log("  first requests at ms:", reqs.slice(0, 24).map((r) => r.at - started).join(" "));
      for (let t = 0; t < wallMs; t += 2000) {
        const w0 = started + t;
        const busy = reqs.reduce((a, r) => a + Math.max(0, Math.min(r.respondedAt ?? 0, w0 + 2000) - Math.max(r.at, w0)), 0);
        const byStage: Record<string, number> = {};
        for (const r of reqs) if (r.at >= w0 && r.at < w0 + 2000) { const st = /\[stage:(\w+)\]/.exec(JSON.stringify(r.body))?.[1] ?? "?"; byStage[st] = (byStage[st] ?? 0) + 1; }
        console.log(`  t=${t / 1000}s in-flight avg ${(busy / 2000).toFixed(1)} ${JSON.stringify(byStage)}`);
      }
    }
    const requests = fake.chatRequests().length;
    const perChainMs = (requests * LATENCY_MS) / IDEAS;
    const idealMs = (perChainMs * IDEAS) / CONCURRENCY;
    const share = idealMs / wallMs;
    const passed = progress.environments.filter((e) => e.status === "IN_REVIEW").length;
    const metrics = { environments: IDEAS, inReview: passed, status: progress.run.status, llmRequests: requests, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, qualityRounds: ROUNDS, chainLlmMs: Math.round(perChainMs), wallMs, idealMs: Math.round(idealMs), wallOverIdeal: Number((wallMs / idealMs).toFixed(3)), concurrencyShareUsed: Number(share.toFixed(3)) };
    const targets = { concurrencyShareUsed: { min: 0.9 }, inReview: { min: IDEAS } };
    console.log(`pipeline: ${IDEAS} ideas, ${requests} LLM requests at ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, ${ROUNDS} quality rounds`);
    console.log(`  wall ${(wallMs / 1000).toFixed(1)} s / ideal ${(idealMs / 1000).toFixed(1)} s = ${(wallMs / idealMs).toFixed(2)}×  →  ${(share * 100).toFixed(1)} % of configured concurrency used (target ≥ 90 %)`);
    console.log(`  ${passed}/${IDEAS} environments in review, run ${progress.run.status.toLowerCase()}`);
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/pipeline.json", JSON.stringify({ name: "pipeline", metrics, targets }, null, 2) + "\n");
  } finally {
    await worker.stop();
    await closeSandboxRunner();
    await db.$disconnect();
    await fake.close();
    await drop();
  }
}
