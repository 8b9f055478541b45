import "server-only";
/** The code that runs a job: what the worker hands it, and its type for a given definition. */
import type { Db } from "@/lib/db";
import type { JobDefinition, JobPayload } from "../job-definition";
import type { JobQueue } from "./send-job";

export type JobContext = {
  jobId: string;
  /** 0 on the first delivery (pg-boss retryCount). */
  attempt: number;
  /** No retry follows a retryable failure of this attempt (from the definition's retryLimit). */
  isFinalAttempt: boolean;
  /** Aborted when the worker shuts down. */
  signal: AbortSignal;
  /** The worker's database client. */
  db: Db;
  /** The worker's own queue, for follow-up work (the next pipeline step, a proof run). */
  queue: JobQueue;
};

export type JobHandler<D extends JobDefinition = JobDefinition> = (
  payload: JobPayload<D>,
  ctx: JobContext,
) => Promise<unknown>;

/** Finds the handler of a definition; the worker calls it once per job type and keeps the result. */
export type JobHandlerLoader = (def: JobDefinition) => Promise<JobHandler>;

/** A definition's handler, typed by the definition (for `handlersOf`). */
export const handlerFor = <D extends JobDefinition>(def: D, handler: JobHandler<D>) => ({
  name: def.name,
  handler: handler as JobHandler,
});

/** A loader over handlers given up front: tests and tools that run a few jobs of their own in-process. */
export function handlersOf(...entries: ReturnType<typeof handlerFor>[]): JobHandlerLoader {
  const byName = new Map(entries.map((e) => [e.name, e.handler]));
  return (def) => {
    const handler = byName.get(def.name);
    return handler ? Promise.resolve(handler) : Promise.reject(new Error(`no handler for job ${def.name}`));
  };
}
