/**
 * pg-boss on the studio's Postgres (its own `pgboss` schema). Queues use LISTEN/NOTIFY for ~10 ms
 * wake-ups, with batch fetching so short jobs are not capped by the polling interval.
 */
import { PgBoss } from "pg-boss";
import type { JobDefinition } from "./job-definition";
import { readEnv } from "../env";

export async function startBoss(url: string, opts: { supervise?: boolean } = {}): Promise<PgBoss> {
  // Supervision also fails jobs whose worker stopped heart-beating; JOBS_SUPERVISE_SECONDS bounds how
  // long a crashed worker's job waits before another worker retries it (pg-boss default: 60 s).
  const superviseSeconds = readEnv("JOBS_SUPERVISE_SECONDS");
  const boss = new PgBoss({
    connectionString: url, max: 4, application_name: "envstudio-jobs", useListenNotify: true, supervise: opts.supervise ?? true,
    superviseIntervalSeconds: superviseSeconds, monitorIntervalSeconds: superviseSeconds,
  });
  boss.on("error", (error) => console.error("[jobs]", error.message));
  await boss.start();
  return boss;
}

export async function ensureQueues(boss: PgBoss, defs: JobDefinition[]): Promise<void> {
  for (const def of defs) {
    if (!(await boss.getQueue(def.name))) {
      await boss.createQueue(def.name, {
        policy: "exclusive", retryLimit: def.retryLimit, retryBackoff: true, retryDelay: 2, notify: true,
        ...(def.heartbeatSeconds ? { heartbeatSeconds: def.heartbeatSeconds } : {}),
        ...(def.expireInSeconds ? { expireInSeconds: def.expireInSeconds } : {}),
      });
    }
  }
}

/**
 * Enqueue with a deterministic key naming the work (e.g. `run:<id>:step:<stage>`). Queues use the
 * "exclusive" policy, so a duplicate enqueue of the same key while the first is queued, running or
 * waiting for a retry is a no-op (returns null). Finished work is memoised in the database.
 */
export async function enqueue(boss: PgBoss, def: JobDefinition, payload: unknown, key: string): Promise<string | null> {
  const data = def.schema.parse(payload) as object;
  return boss.send(def.name, data, { singletonKey: key });
}

/**
 * Enqueues many keyed jobs in one round trip (a run's fan-out of 20+ steps would otherwise cost a
 * send each, spacing their starts out). Same semantics as `enqueue`: a key already queued, running or
 * waiting for a retry is skipped.
 */
export async function enqueueMany(boss: PgBoss, def: JobDefinition, items: { payload: unknown; key: string }[]): Promise<void> {
  if (items.length === 0) return;
  const jobs = items.map((i) => ({ data: def.schema.parse(i.payload) as object, singletonKey: i.key }));
  await boss.insert(def.name, jobs);
}
