/**
 * A job worker: any number can run, on this machine or others, against the same database. It
 * registers one pg-boss worker per job definition and loads each handler lazily, once.
 * Payloads are parsed with each job's schema; a JobError with retryable=false fails the job for
 * good (pg-boss would otherwise retry it). Retried and deferred jobs raise no NOTIFY, so the
 * backstop poll is kept short (2 s).
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../db";
import { ensureQueues, startBoss } from "./boss";
import { type JobDefinition, JobError, isFinalAttempt } from "./job-definition";
import type { JobHandler, JobHandlerLoader } from "./server/job-handler";
import { type JobQueue, jobQueueOn } from "./server/send-job";

export type RunningWorker = { boss: PgBoss; queue: JobQueue; stop: () => Promise<void> };
export type WorkerOptions = { db: Db; loadHandler: JobHandlerLoader };

type Env = { boss: PgBoss; queue: JobQueue; db: Db; signal: AbortSignal };

async function runOne(
  env: Env,
  def: JobDefinition,
  handler: JobHandler,
  job: { id: string; data: unknown; retryCount?: number },
) {
  const parsed = def.schema.safeParse(job.data);
  if (!parsed.success) {
    // A malformed payload will never succeed: fail it without using up retries.
    await env.boss.deleteJob(def.name, job.id).catch(() => undefined);
    console.error(`[jobs] ${def.name} ${job.id}: invalid payload: ${parsed.error.message}`);
    return;
  }
  const attempt = job.retryCount ?? 0;
  try {
    return await handler(parsed.data, {
      jobId: job.id,
      attempt,
      isFinalAttempt: isFinalAttempt(def, attempt),
      signal: env.signal,
      db: env.db,
      queue: env.queue,
    });
  } catch (error) {
    if (error instanceof JobError && !error.retryable) {
      console.error(`[jobs] ${def.name} ${job.id}: ${error.message} (not retryable)`);
      await env.boss.deleteJob(def.name, job.id).catch(() => undefined);
      return { failed: error.message };
    }
    throw error;
  }
}

export async function startWorker(
  url: string,
  defs: readonly JobDefinition[],
  opts: WorkerOptions,
): Promise<RunningWorker> {
  const boss = await startBoss(url);
  await ensureQueues(boss, [...defs]);
  const abort = new AbortController();
  const env: Env = { boss, queue: jobQueueOn(boss), db: opts.db, signal: abort.signal };
  for (const def of defs) {
    // Imported once: a dynamic import per job goes through module resolution every time.
    let handler: Promise<JobHandler> | undefined;
    await boss.work<unknown>(
      def.name,
      {
        localConcurrency: def.concurrency,
        batchSize: 1,
        pollingIntervalSeconds: 1,
        notifyPollingIntervalSeconds: 2,
      },
      async (jobs) => {
        handler ??= opts.loadHandler(def).catch((error: unknown) => {
          handler = undefined;
          throw error;
        });
        const run = await handler;
        for (const job of jobs) await runOne(env, def, run, job);
      },
    );
  }
  return {
    boss,
    queue: env.queue,
    stop: async () => {
      abort.abort();
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
