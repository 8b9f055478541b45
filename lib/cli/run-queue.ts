/**
 * What a CLI command that launches a run needs: the database `npm start` would use (migrated when
 * the CLI had to start it) and a job queue on it — an in-process worker for the run's job unless
 * the user asked for none (--no-worker), otherwise a pg-boss client that only sends, leaving the
 * work to the studio's workers. `close` undoes all of it without turning the command's outcome
 * into a stack trace: a failure to clean up is a warning.
 */
import type { JobDefinition } from "../jobs/job-definition";
import type { JobQueue } from "../jobs/server/send-job";
import type { Db } from "../db";
import type { CliIo } from "./cli-io";
import { cliDataDir } from "./open-project";

export type RunQueue = { db: Db; queue: JobQueue; close: () => Promise<void> };

export async function openRunQueue(
  job: JobDefinition,
  inProcessWorker: boolean,
  io: CliIo,
): Promise<RunQueue> {
  const [
    { createDb },
    { resolveDatabaseUrl },
    { startBoss },
    { jobQueueOn },
    { loadJobHandler },
    { startWorker },
    { closeSandboxRunner },
  ] = await Promise.all([
    import("../db"),
    import("../db/server/resolve-database"),
    import("../jobs/boss"),
    import("../jobs/server/send-job"),
    import("../jobs/server/job-handlers"),
    import("../jobs/worker"),
    import("../sandbox"),
  ]);
  const { url, stop } = await resolveDatabaseUrl({ migrate: true, dataDir: cliDataDir() });
  const db = createDb(url, 4);
  const worker = inProcessWorker ? await startWorker(url, [job], { db, loadHandler: loadJobHandler }) : null;
  const boss = worker?.boss ?? (await startBoss(url, { supervise: false }));
  const quietly = (what: string, p: Promise<unknown>) =>
    p.catch((e: unknown) => io.err(`warning: ${what}: ${e instanceof Error ? e.message : String(e)}`));
  return {
    db,
    queue: worker?.queue ?? jobQueueOn(boss),
    close: async () => {
      await quietly("stopping the job queue", worker ? worker.stop() : boss.stop({ graceful: false }));
      // The in-process worker's steps ran Python in the process-wide sandbox host; left open, it
      // keeps this process alive after the run.
      await quietly("closing the sandbox", closeSandboxRunner());
      await quietly("closing the database", db.$disconnect());
      await quietly("stopping the database", stop());
    },
  };
}
