/**
 * `envstudio pipeline run`: the same SkelBuilder jobs as the studio, headless. Enqueues the run,
 * runs an in-process worker (unless --no-worker) and prints progress until the run settles; the
 * run and its environments appear in the studio like any other.
 */
import { createDb } from "../db";
import { resolveDatabaseUrl } from "../db/server/resolve-database";
import { cliDataDir } from "./open-project";
import { startBoss } from "../jobs/boss";
import { jobQueueOn } from "../jobs/server/send-job";
import { loadJobHandler } from "../jobs/server/job-handlers";
import { startWorker } from "../jobs/worker";
import { getLlmConfig, unpricedWarning } from "../llm";
import { buildRunConfig, checkRunPrices } from "../pipeline/run-config";
import { createRun } from "../pipeline/server/create-run";
import { PIPELINE_STEP_JOB } from "../pipeline/step-job";
import { getDefaultProject } from "../projects/server/get-default-project";
import { closeSandboxRunner } from "../sandbox";
import { followRun } from "./follow-run";
import { UsageError } from "./cli-flags";
import type { CliIo } from "./cli-io";
import { PIPELINE_USAGE, parsePipelineRunArgs } from "./pipeline-input";

export async function runPipelineCommand(
  argv: string[],
  io: CliIo,
  opts: { pollMs?: number; dbWaitMs?: number } = {},
): Promise<number> {
  const [verb, ...rest] = argv;
  // Usage mistakes are thrown as UsageError: the entry (main.ts) prints them with this usage, exit 2.
  if (verb !== "run")
    throw new UsageError(verb ? `unknown verb '${verb}'` : "missing verb (run)", PIPELINE_USAGE);
  let args;
  try {
    args = parsePipelineRunArgs(rest);
  } catch (e) {
    throw e instanceof UsageError ? new UsageError(e.message, PIPELINE_USAGE) : e;
  }
  const llm = getLlmConfig();
  if (!llm.baseUrl)
    io.err("warning: OPENAI_BASE_URL is not set; LLM steps will fail unless your workers have it");
  const config = buildRunConfig(llm, args.overrides, llm.prices);
  // Before the database is opened: a budget on an unpriced model is refused with nothing written.
  const unpriced = checkRunPrices(config, llm.prices);
  if (unpriced.length) io.err(`warning: ${unpricedWarning(unpriced)}`);
  const { url, stop } = await resolveDatabaseUrl({ migrate: true, dataDir: cliDataDir() });
  const db = createDb(url, 4);
  const worker = args.inProcessWorker
    ? await startWorker(url, [PIPELINE_STEP_JOB], { db, loadHandler: loadJobHandler })
    : null;
  // Without a worker of its own, the command only enqueues: a pg-boss client that sends, on the resolved database.
  const boss = worker?.boss ?? (await startBoss(url, { supervise: false }));
  const queue = worker?.queue ?? jobQueueOn(boss);
  try {
    const project = await getDefaultProject(db);
    const run = await createRun(db, queue, {
      projectId: project.id,
      name: args.name,
      input: args.input,
      config,
    });
    io.out(`run ${run.id} started (${run.name}); follow it in the studio at /runs/${run.id}`);
    return await followRun(db, run.id, io, {
      pollMs: opts.pollMs ?? 1000,
      dbWaitMs: opts.dbWaitMs ?? args.dbWaitMs,
    });
  } finally {
    // Cleanup must not turn a clear outcome (e.g. "gave up: database unreachable") into a stack trace.
    const quietly = (what: string, p: Promise<unknown>) =>
      p.catch((e: unknown) => io.err(`warning: ${what}: ${e instanceof Error ? e.message : String(e)}`));
    await quietly("stopping the job queue", worker ? worker.stop() : boss.stop({ graceful: false }));
    // The in-process worker's steps ran Python in the process-wide sandbox host; left open, it keeps
    // this process alive after the run.
    await quietly("closing the sandbox", closeSandboxRunner());
    await quietly("closing the database", db.$disconnect());
    await quietly("stopping the database", stop());
  }
}
