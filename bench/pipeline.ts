/**
 * `npm run bench -- pipeline`: how well a SkelBuilder run keeps the LLM endpoint busy. A scripted
 * OpenAI-compatible server (its own process) answers every request after a fixed latency (200 ms);
 * 20 typed ideas run through the whole chain on one in-process worker with LLM concurrency C.
 *   ideal = (LLM requests × latency) / C  — sequential LLM latency per environment chain × envs / C
 *   share of concurrency used = ideal / wall (target ≥ 90 %)
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createDb } from "../lib/db";
import { scratchDatabase, startEndpoint, warmSandbox } from "./pipeline/setup";

const LATENCY_MS = 200;
const IDEAS = 20;
const CONCURRENCY = Number(process.env.BENCH_LLM_CONCURRENCY ?? 8);
/** The product default (spec §4.2): the quality loop is most of an environment's LLM work. */
const ROUNDS = Number(process.env.BENCH_QUALITY_ROUNDS ?? 30);

export async function main() {
  // Configuration is read when the modules load, so set it before importing them.
  process.env.LLM_CONCURRENCY = String(CONCURRENCY);
  process.env.PIPELINE_JOB_CONCURRENCY ??= String(IDEAS);
  // A quality check holds a sandbox episode for its whole loop: one worker per concurrent check,
  // plus workers for the analyses of chains still being built (analysis only runs on workers that
  // never ran generated code; with too few, the pool boots new ones in the middle of the run).
  process.env.SANDBOX_POOL_SIZE ??= String(IDEAS + 8);
  const { loadSampleEnv } = await import("../tests/fake-openai/sample-env");
  const sample = loadSampleEnv("library-lending", {
    operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
  });
  const endpoint = await startEndpoint(LATENCY_MS);
  process.env.OPENAI_BASE_URL = endpoint.url;
  process.env.OPENAI_API_KEY = "bench";
  const { url, drop } = await scratchDatabase();
  const db = createDb(url, 8);
  const { startWorker } = await import("../lib/jobs/worker");
  const { PIPELINE_STEP_JOB } = await import("../lib/pipeline/step-job");
  const { loadJobHandler } = await import("../lib/jobs/server/job-handlers");
  const { createRun } = await import("../lib/pipeline/server/create-run");
  const { getRunProgress } = await import("../lib/pipeline/server/get-run");
  const { isTerminalRunStatus } = await import("../lib/core/run");
  const { buildRunConfig } = await import("../lib/pipeline/run-config");
  const { getSandboxRunner, closeSandboxRunner, resolveOptions } = await import("../lib/sandbox");
  const worker = await startWorker(url, [PIPELINE_STEP_JOB], { db, loadHandler: loadJobHandler });
  try {
    // Boot the sandbox pool and load the step handler first: one-off start-up is not pipeline throughput.
    await import("../lib/pipeline/server/run-step");
    const { poolSize, spareWorkers } = resolveOptions();
    await warmSandbox(getSandboxRunner(), sample, poolSize + spareWorkers);
    const project = await db.project.create({
      data: { slug: `bench-${randomBytes(3).toString("hex")}`, name: "bench" },
    });
    const ideas = Array.from(
      { length: IDEAS },
      (_, i) => `Library lending desk number ${i + 1} with members, loans and fines`,
    );
    const config = buildRunConfig(
      { defaultModel: "bench-main", checkModel: "bench-check", embeddingModel: null },
      { qualityRounds: ROUNDS },
    );
    const transactions = async () =>
      Number(
        (
          await db.$queryRaw<
            { n: bigint }[]
          >`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`
        )[0]?.n ?? 0,
      );
    const [transactionsBefore, bootedBefore] = [
      await transactions(),
      (await getSandboxRunner().stats()).readyMs.length,
    ];
    const started = Date.now();
    const run = await createRun(db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas },
      config,
    });
    const createdMs = Date.now() - started;
    // Poll the run's row only (the full progress view costs five queries, on the measured process).
    const isOver = async () => {
      const row = await db.pipelineRun.findUniqueOrThrow({
        where: { id: run.id },
        select: { status: true, finishedAt: true },
      });
      return isTerminalRunStatus(row.status) && row.finishedAt !== null;
    };
    while (!(await isOver())) await new Promise((r) => setTimeout(r, 100));
    const wallMs = Date.now() - started;
    const progress = await getRunProgress(db, run.id);
    const records = await endpoint.records();
    if (process.env.BENCH_DEBUG) {
      const debug = await import("./pipeline/debug");
      debug.printInFlight(records, started, wallMs);
      await debug.printStageTimings(db, run.id, started);
      console.log(
        `  createRun ${createdMs} ms; ${(await transactions()) - transactionsBefore} database transactions; sandbox workers booted ${(await getSandboxRunner().stats()).readyMs.length - bootedBefore} during the run`,
      );
    }
    const requests = records.length;
    const perChainMs = (requests * LATENCY_MS) / IDEAS;
    const idealMs = (perChainMs * IDEAS) / CONCURRENCY;
    const share = idealMs / wallMs;
    const passed = progress.environments.filter((e) => e.status === "IN_REVIEW").length;
    const metrics = {
      environments: IDEAS,
      inReview: passed,
      status: progress.run.status,
      llmRequests: requests,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      qualityRounds: ROUNDS,
      chainLlmMs: Math.round(perChainMs),
      wallMs,
      idealMs: Math.round(idealMs),
      wallOverIdeal: Number((wallMs / idealMs).toFixed(3)),
      concurrencyShareUsed: Number(share.toFixed(3)),
    };
    const targets = { concurrencyShareUsed: { min: 0.9 }, inReview: { min: IDEAS } };
    console.log(
      `pipeline: ${IDEAS} ideas, ${requests} LLM requests at ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, ${ROUNDS} quality rounds`,
    );
    console.log(
      `  wall ${(wallMs / 1000).toFixed(1)} s / ideal ${(idealMs / 1000).toFixed(1)} s = ${(wallMs / idealMs).toFixed(2)}×  →  ${(share * 100).toFixed(1)} % of configured concurrency used (target ≥ 90 %)`,
    );
    console.log(`  ${passed}/${IDEAS} environments in review, run ${progress.run.status.toLowerCase()}`);
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(
      "bench/results/pipeline.json",
      JSON.stringify({ name: "pipeline", metrics, targets }, null, 2) + "\n",
    );
  } finally {
    await worker.stop();
    await closeSandboxRunner();
    await db.$disconnect();
    endpoint.stop();
    await drop();
  }
}
