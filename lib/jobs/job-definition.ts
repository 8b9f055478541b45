/**
 * A job type, apart from the code that runs it: a queue name, a zod schema for its payload (parsed
 * before sending and again before the handler runs), how many of it one worker runs at once, and
 * its retry policy. The handler lives in a server module that the worker loads lazily (see
 * lib/jobs/server/job-handlers.ts), so enqueuing a job never loads — or imports in a cycle — the
 * code that runs it. Handlers throw JobError to say whether a failure is worth retrying; anything
 * else is treated as retryable (crash, network).
 */
import type { z } from "zod";

export class JobError extends Error {
  override name = "JobError";
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type JobDefinition<N extends string = string, S extends z.ZodType = z.ZodType> = {
  name: N;
  schema: S;
  /** Jobs of this type one worker runs at once. */
  concurrency: number;
  /**
   * Retries of a job whose handler failed retryably. The attempt after the last retry is told it is
   * final (JobContext.isFinalAttempt), so it records its failures instead of asking for another.
   */
  retryLimit: number;
  /** Further deliveries, beyond retryLimit, reserved for jobs whose worker died mid-way (crash, kill -9). */
  crashRetries?: number;
  /** Long jobs: a worker that stops heart-beating (crash, kill -9) has its job retried elsewhere. */
  heartbeatSeconds?: number;
  /** How long a job may stay active (pg-boss default 15 min). */
  expireInSeconds?: number;
};

/** What a handler receives (the schema's output) and what a sender passes (its input). */
export type JobPayload<D extends JobDefinition> = z.output<D["schema"]>;
export type JobInput<D extends JobDefinition> = z.input<D["schema"]>;

export const defineJob = <const N extends string, S extends z.ZodType>(
  def: JobDefinition<N, S>,
): JobDefinition<N, S> => def;

/** Deliveries pg-boss may retry: the definition's retries plus its crash allowance. */
export const queueRetryLimit = (def: JobDefinition): number => def.retryLimit + (def.crashRetries ?? 0);

/** `attempt` counts from 0 (pg-boss retryCount): attempt `retryLimit` is the last one that may fail retryably. */
export const isFinalAttempt = (def: JobDefinition, attempt: number): boolean => attempt >= def.retryLimit;
