/**
 * What a memoised run counts as its steps finish, and what it decides at the end: while retryable
 * failures remain and attempts are left it asks for a retry (the finished steps are memoised, so
 * the retry redoes only those); otherwise it finishes with the counts. Pure.
 */
import type { StepError } from "../core/run";
import { JobError } from "../jobs/job-definition";

export type RunTally = { succeeded: number; failed: number; retryable: number; budgetExceeded: boolean };

export const emptyTally = (): RunTally => ({ succeeded: 0, failed: 0, retryable: 0, budgetExceeded: false });

export function countStep(
  tally: RunTally,
  outcome: { status: "SUCCEEDED" } | { status: "FAILED"; error: StepError },
): void {
  if (outcome.status === "SUCCEEDED") {
    tally.succeeded += 1;
    return;
  }
  tally.failed += 1;
  if (outcome.error.retryable) tally.retryable += 1;
  if (outcome.error.code === "BUDGET_EXCEEDED") tally.budgetExceeded = true;
}

/** The retryable JobError that leaves the run RUNNING for another attempt, or null when it should finish. */
export function retryErrorFor(tally: RunTally, stepsNoun: string, isFinalAttempt: boolean): JobError | null {
  if (tally.retryable === 0 || isFinalAttempt) return null;
  return new JobError(`${tally.retryable} ${stepsNoun} failed and may succeed on retry`, true);
}
