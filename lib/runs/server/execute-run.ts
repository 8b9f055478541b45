import "server-only";
/**
 * The one executor of memoised runs (scenario generation, proof, rollouts): start the run, parse
 * its config and input, run the kind's steps as memoised PipelineSteps with a concurrency limit,
 * tally them, ask for a retry while retryable failures remain, else finish. A run kind supplies
 * only its schemas, its steps (`execute`) and, when the counts are not its result, `finish`.
 */
import type { z } from "zod";
import { forEachLimited } from "@/lib/core/for-each-limited";
import type { Result } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db } from "@/lib/db";
import { type RunTally, countStep, emptyTally, retryErrorFor } from "../run-tally";
import { finishRun, isCancelling, startRun } from "./run-lifecycle";
import { type StepKey, memoStep } from "./step-memo";

export type RunOutcome = Parameters<typeof finishRun>[2];

export type RunScope<C, I> = {
  db: Db;
  runId: string;
  projectId: string;
  config: C;
  input: I;
  tally: RunTally;
  /** Runs `work` as a memoised step of this run and counts its outcome: its output, or null when it failed. */
  step: <T>(
    key: Omit<StepKey, "runId">,
    output: z.ZodType<T>,
    work: (stepId: string) => Promise<Result<T, StepError>>,
  ) => Promise<T | null>;
  /** `fn` for every item, the kind's concurrency at a time; no new item once the run is stopped. */
  forEach: <T>(items: T[], fn: (item: T, index: number) => Promise<void>) => Promise<void>;
};

export type RunKindSpec<C, I, R> = {
  /** What the retry message calls the steps ("proof step(s)"). */
  stepsNoun: string;
  configSchema: z.ZodType<C>;
  inputSchema: z.ZodType<I>;
  concurrency: (config: C) => number;
  /** A step failing with BUDGET_EXCEEDED stops the run: no new item is taken and it finishes BUDGET_EXCEEDED. */
  stopsOnBudget?: boolean;
  execute: (run: RunScope<C, I>) => Promise<R>;
  /**
   * Runs once no retry is asked for (follow-up work such as a proof run goes here, so a retried
   * attempt never repeats it) and says what the run records. Default: the tally's counts.
   */
  finish?: (run: RunScope<C, I>, result: R) => Promise<RunOutcome>;
};

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export async function executeRun<C, I, R>(
  db: Db,
  runId: string,
  kind: RunKindSpec<C, I, R>,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> {
  if (!(await startRun(db, runId))) return;
  const row = await db.pipelineRun.findUniqueOrThrow({ where: { id: runId } });
  const config = kind.configSchema.parse(row.config);
  const input = kind.inputSchema.parse(row.input);
  const tally = emptyTally();
  const isStopped = async () =>
    (kind.stopsOnBudget === true && tally.budgetExceeded) || (await isCancelling(db, runId));
  const run: RunScope<C, I> = {
    db,
    runId,
    projectId: row.projectId,
    config,
    input,
    tally,
    step: async (key, output, work) => {
      const outcome = await memoStep(db, { runId, ...key }, output, work);
      countStep(tally, outcome);
      return outcome.status === "SUCCEEDED" ? outcome.output : null;
    },
    forEach: (items, fn) => forEachLimited(items, kind.concurrency(config), fn, isStopped),
  };
  const result = await kind.execute(run);
  const retry = retryErrorFor(tally, kind.stepsNoun, opts.finalAttempt ?? false);
  if (retry) throw retry;
  const outcome = kind.finish
    ? await kind.finish(run, result)
    : {
        failedSteps: tally.failed,
        succeededSteps: tally.succeeded,
        budgetExceeded: kind.stopsOnBudget === true && tally.budgetExceeded,
      };
  await finishRun(db, runId, outcome);
}
