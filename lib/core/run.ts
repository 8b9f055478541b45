/**
 * The vocabulary every kind of run shares (SkelBuilder, scenario generation, proof, rollouts):
 * how a piece of work failed, and which run and step statuses are final. Pure: the studio, the
 * worker, the CLI and the browser all read the same lists.
 */

/**
 * Why a stage, a step or a proof failed. Stored on the step (errorCode, errorMessage, retryable)
 * and shown to reviewers; `retryable` says whether running the same work again could succeed.
 */
export type StepError = { code: string; message: string; retryable: boolean };

/** A run in one of these statuses has work queued or in progress, and may take more. */
export const ACTIVE_RUN_STATUSES = ["QUEUED", "RUNNING"] as const;

/** A run in one of these statuses is over: no job works on it any more. */
export const TERMINAL_RUN_STATUSES = ["SUCCEEDED", "FAILED", "CANCELLED", "BUDGET_EXCEEDED"] as const;

/** A run in one of these statuses takes no new work (a CANCELLING run still lets running steps settle). */
export const STOPPED_RUN_STATUSES = ["CANCELLING", "CANCELLED", "BUDGET_EXCEEDED", "FAILED"] as const;

/** A step in one of these statuses is settled; its job is never repeated. */
export const SETTLED_STEP_STATUSES = ["SUCCEEDED", "FAILED", "SKIPPED", "CANCELLED"] as const;

/** Steps still waiting for, or held by, a worker. */
export const OPEN_STEP_STATUSES = ["PENDING", "RUNNING"] as const;

const includes = (list: readonly string[], status: string) => list.includes(status);
export const isActiveRunStatus = (status: string): boolean => includes(ACTIVE_RUN_STATUSES, status);
export const isTerminalRunStatus = (status: string): boolean => includes(TERMINAL_RUN_STATUSES, status);
export const isStoppedRunStatus = (status: string): boolean => includes(STOPPED_RUN_STATUSES, status);
export const isSettledStepStatus = (status: string): boolean => includes(SETTLED_STEP_STATUSES, status);
