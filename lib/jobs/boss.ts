/**
 * pg-boss on the studio's Postgres (its own `pgboss` schema). Queues use LISTEN/NOTIFY for ~10 ms
 * wake-ups, with batch fetching so short jobs are not capped by the polling interval.
 */
import { PgBoss } from "pg-boss";
import { type JobDefinition, queueRetryLimit } from "./job-definition";
import { readEnv } from "../env";

export async function startBoss(url: string, opts: { supervise?: boolean } = {}): Promise<PgBoss> {
  // Supervision also fails jobs whose worker stopped heart-beating; JOBS_SUPERVISE_SECONDS bounds how
  // long a crashed worker's job waits before another worker retries it (pg-boss default: 60 s).
  const superviseSeconds = readEnv("JOBS_SUPERVISE_SECONDS");
  const boss = new PgBoss({
    connectionString: url,
    max: 4,
    application_name: "envstudio-jobs",
    useListenNotify: true,
    supervise: opts.supervise ?? true,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
  });
  boss.on("error", (error) => console.error("[jobs]", error.message));
  await boss.start();
  return boss;
}

export async function ensureQueues(boss: PgBoss, defs: JobDefinition[]): Promise<void> {
  for (const def of defs) {
    if (!(await boss.getQueue(def.name))) {
      await boss.createQueue(def.name, {
        policy: "exclusive",
        retryLimit: queueRetryLimit(def),
        retryBackoff: true,
        retryDelay: 2,
        notify: true,
        ...(def.heartbeatSeconds ? { heartbeatSeconds: def.heartbeatSeconds } : {}),
        ...(def.expireInSeconds ? { expireInSeconds: def.expireInSeconds } : {}),
      });
    }
  }
}
