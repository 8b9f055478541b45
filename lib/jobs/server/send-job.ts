import "server-only";
/**
 * The one way to enqueue a job. A payload is parsed with its definition's schema before anything
 * reaches the queue, so a malformed one fails at the caller (never as a job that can only fail);
 * a queue is created on first send, so a process can enqueue before any worker has started.
 *
 * Enqueues use a deterministic key naming the work (e.g. `run:<id>`). Queues use the "exclusive"
 * policy, so a duplicate send of a key that is queued, running or waiting for a retry is a no-op
 * (returns null); finished work is memoised in the database.
 */
import type { PgBoss } from "pg-boss";
import { ensureQueues, startBoss } from "../boss";
import { readEnv } from "../../env";
import { type JobDefinition, type JobInput, JobError } from "../job-definition";

export type JobSender = <D extends JobDefinition>(
  def: D,
  payload: JobInput<D>,
  key: string,
) => Promise<string | null>;

export type JobQueue = {
  send: JobSender;
  /** Many keyed jobs of one type in one round trip (a run's fan-out of 20+ steps would otherwise cost a send each). */
  sendMany: <D extends JobDefinition>(def: D, jobs: { payload: JobInput<D>; key: string }[]) => Promise<void>;
};

function parsePayload(def: JobDefinition, payload: unknown): object {
  const parsed = def.schema.safeParse(payload);
  if (!parsed.success)
    throw new JobError(`${def.name}: invalid payload: ${parsed.error.message}`, false, {
      cause: parsed.error,
    });
  return parsed.data as object;
}

/** A queue on a started pg-boss: the worker's own (handlers enqueue follow-up work) or the process's producer. */
export function jobQueueOn(boss: PgBoss): JobQueue {
  const ensured = new Set<string>();
  const ready = async (def: JobDefinition) => {
    if (ensured.has(def.name)) return;
    await ensureQueues(boss, [def]);
    ensured.add(def.name);
  };
  return {
    send: async (def, payload, key) => {
      const data = parsePayload(def, payload);
      await ready(def);
      return boss.send(def.name, data, { singletonKey: key });
    },
    sendMany: async (def, jobs) => {
      if (jobs.length === 0) return;
      const rows = jobs.map((j) => ({ data: parsePayload(def, j.payload), singletonKey: j.key }));
      await ready(def);
      await boss.insert(def.name, rows);
    },
  };
}

type Producer = { boss: PgBoss; queue: JobQueue };
const cache = globalThis as unknown as { envstudioJobProducer?: Promise<Producer> };

/**
 * The process's producer: a pg-boss client on DATABASE_URL that only sends (no supervision, no
 * workers), started on first use and shared by everything in the process that enqueues.
 */
export function getJobQueue(): Promise<JobQueue> {
  const url = readEnv("DATABASE_URL");
  if (!url) return Promise.reject(new Error("DATABASE_URL is not set"));
  cache.envstudioJobProducer ??= startBoss(url, { supervise: false }).then(
    (boss) => ({ boss, queue: jobQueueOn(boss) }),
    (error: unknown) => {
      cache.envstudioJobProducer = undefined; // the next send tries again
      throw error;
    },
  );
  return cache.envstudioJobProducer.then((p) => p.queue);
}

export const sendJob: JobSender = async (def, payload, key) => {
  parsePayload(def, payload); // refused before the producer even connects
  return (await getJobQueue()).send(def, payload, key);
};

/** Stops the producer (tests, and processes that shut down cleanly). */
export async function closeJobQueue(): Promise<void> {
  const pending = cache.envstudioJobProducer;
  cache.envstudioJobProducer = undefined;
  if (pending) await (await pending).boss.stop({ graceful: false, timeout: 2_000 });
}
