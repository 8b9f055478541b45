/**
 * A job type: a queue name, a zod schema for its payload (parsed before the handler runs, so a
 * malformed payload fails without retries) and a handler. Handlers throw JobError to say whether
 * a failure is worth retrying; anything else is treated as retryable (crash, network).
 */
import type { PgBoss } from "pg-boss";
import type { z } from "zod";

export class JobError extends Error {
  override name = "JobError";
  constructor(message: string, readonly retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** `boss` lets a handler enqueue follow-up work (e.g. the next pipeline step). */
export type JobContext = { jobId: string; attempt: number; signal: AbortSignal; boss: PgBoss };

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  schema: S;
  /** Jobs of this type one worker runs at once. */
  concurrency: number;
  retryLimit: number;
  /** Long jobs: a worker that stops heart-beating (crash, kill -9) has its job retried elsewhere. */
  heartbeatSeconds?: number;
  /** How long a job may stay active (pg-boss default 15 min). */
  expireInSeconds?: number;
  handler: (payload: z.infer<S>, ctx: JobContext) => Promise<unknown>;
};

export const defineJob = <S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> => def;
