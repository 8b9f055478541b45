/**
 * `envstudio pipeline run`: the same SkelBuilder jobs as the studio, headless. Enqueues the run,
 * runs an in-process worker (unless --no-worker) and prints progress until the run settles; the
 * run and its environments appear in the studio like any other.
 */
import { getLlmConfig, unpricedWarning } from "../llm";
import { buildRunConfig, checkRunPrices } from "../pipeline/run-config";
import { createRun } from "../pipeline/server/create-run";
import { PIPELINE_STEP_JOB } from "../pipeline/step-job";
import { getDefaultProject } from "../projects/server/get-default-project";
import { followRun } from "./follow-run";
import { openRunQueue } from "./run-queue";
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
  const { db, queue, close } = await openRunQueue(PIPELINE_STEP_JOB, args.inProcessWorker, io);
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
    await close();
  }
}
