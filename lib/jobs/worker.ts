/**
 * Retried and deferred jobs raise no NOTIFY, so the backstop poll is kept short (2 s).
 * A job worker: any number can run, on this machine or others, against the same database.
 * Payloads are parsed with each job's schema; a JobError with retryable=false fails the job for
 * good (pg-boss would otherwise retry it).
 */
import type { PgBoss } from "pg-boss";
import { ensureQueues, startBoss } from "./boss";
import { JobError, type JobDefinition } from "./job-definition";

export type RunningWorker = { boss: PgBoss; stop: () => Promise<void> };

async function runOne(boss: PgBoss, def: JobDefinition, job: { id: string; data: unknown; retryCount?: number }, signal: AbortSignal) {
  const parsed = def.schema.safeParse(job.data);
  if (!parsed.success) {
    // A malformed payload will never succeed: fail it without using up retries.
    await boss.deleteJob(def.name, job.id).catch(() => undefined);
    console.error(`[jobs] ${def.name} ${job.id}: invalid payload: ${parsed.error.message}`);
    return;
  }
  try {
    return await def.handler(parsed.data, { jobId: job.id, attempt: job.retryCount ?? 0, signal, boss });
  } catch (error) {
    if (error instanceof JobError && !error.retryable) {
      console.error(`[jobs] ${def.name} ${job.id}: ${error.message} (not retryable)`);
      await boss.deleteJob(def.name, job.id).catch(() => undefined);
      return { failed: error.message };
    }
    throw error;
  }
}

export async function startWorker(url: string, defs: JobDefinition[]): Promise<RunningWorker> {
  const boss = await startBoss(url);
  await ensureQueues(boss, defs);
  const abort = new AbortController();
  for (const def of defs) {
    await boss.work<unknown>(def.name, { localConcurrency: def.concurrency, batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 2 }, async (jobs) => {
      for (const job of jobs) await runOne(boss, def, job, abort.signal);
    });
  }
  return {
    boss,
    stop: async () => {
      abort.abort();
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
