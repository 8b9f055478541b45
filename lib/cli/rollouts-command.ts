/**
 * `envstudio rollouts`: k rollouts per scenario per model over a dataset version, headless. The
 * same ROLLOUT run as the studio's (resumable: a killed command leaves a run that any worker
 * resumes from its memoised steps). Runs an in-process worker unless --no-worker, follows the run
 * to the end, then prints the dataset's difficulty on its pins. Bad input (k, an unknown model, a
 * budget on an unpriced model) is refused before anything starts.
 */
import { readEnv } from "../env";
import { getLlmConfig, listModels } from "../llm";
import { getDefaultProject } from "../projects/server/get-default-project";
import { ROLLOUT_JOB } from "../rollout/rollout-job";
import {
  type FlagSpec,
  UsageError,
  WHOLE_NUMBER,
  numberFlag,
  parseFlags,
  requiredString,
  stringFlag,
} from "./cli-flags";
import type { CliIo } from "./cli-io";
import { followRun } from "./follow-run";
import { openRunQueue } from "./run-queue";

export const ROLLOUTS_FLAGS = {
  strings: ["dataset", "version", "k", "models", "max-cost", "db-wait"],
  booleans: ["conversational", "no-worker"],
} as const satisfies FlagSpec;

function parseArgs(argv: string[]) {
  const { values } = parseFlags(argv, ROLLOUTS_FLAGS);
  const max = readEnv("ROLLOUT_MAX_K");
  const k = numberFlag(values, "k", {
    integer: true,
    min: 1,
    max,
    what: `a whole number from 1 to ${max} (ROLLOUT_MAX_K)`,
  });
  if (k === undefined) throw new UsageError("missing --k");
  const models = stringFlag(values, "models")
    ?.split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (models?.length === 0) throw new UsageError("--models names no model");
  return {
    dataset: requiredString(values, "dataset"),
    version: numberFlag(values, "version", WHOLE_NUMBER),
    k,
    models,
    maxCostUsd: numberFlag(values, "max-cost", { min: 0, exclusiveMin: true }),
    mode: values.conversational === true ? ("conversational" as const) : ("non_conversational" as const),
    inProcessWorker: values["no-worker"] !== true,
    dbWaitMs: (numberFlag(values, "db-wait", WHOLE_NUMBER) ?? 300) * 1000,
  };
}

export async function runRolloutsCommand(
  argv: string[],
  io: CliIo,
  opts: { pollMs?: number } = {},
): Promise<number> {
  const args = parseArgs(argv);
  const llm = getLlmConfig();
  if (!llm.baseUrl) {
    io.err(
      "envstudio rollouts: OPENAI_BASE_URL is not set: no endpoint to list models from or roll out with",
    );
    return 1;
  }
  const baseUrl = llm.baseUrl;
  const models = args.models ?? [llm.defaultModel];
  const { checkRolloutRequest, launchDatasetRollouts } =
    await import("../rollout/server/launch-dataset-rollouts");
  const endpointModels = () => listModels(baseUrl, llm.apiKey);
  // Before the database is opened: bad k or an unknown model costs nothing and writes nothing.
  await checkRolloutRequest({ k: args.k, models }, endpointModels);
  const { db, queue, close } = await openRunQueue(ROLLOUT_JOB, args.inProcessWorker, io);
  try {
    const project = await getDefaultProject(db);
    const { run, dataset, version } = await launchDatasetRollouts(
      db,
      queue.send,
      { projectId: project.id, ...args, models },
      endpointModels,
    );
    io.out(`run ${run.id} started (${run.name}); follow it in the studio at /runs/${run.id}`);
    const code = await followRun(db, run.id, io, { pollMs: opts.pollMs ?? 1000, dbWaitMs: args.dbWaitMs });
    const { summarizeDatasetDifficulty } = await import("../difficulty/server/dataset-difficulty-summary");
    for (const line of await summarizeDatasetDifficulty(db, version.id)) io.out(line);
    io.out(`dataset ${dataset.name} v${version.version}: /datasets/${dataset.id}`);
    return code;
  } finally {
    await close();
  }
}
