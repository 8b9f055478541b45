/**
 * Seeds the default project with the sample environments. Tool schemas are extracted from each
 * sample's source by the sandbox (Python's ast, never in this process).
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../lib/db";
import { startBoss } from "../../lib/jobs/boss";
import { type JobQueue, type JobSender, jobQueueOn } from "../../lib/jobs/server/send-job";
import { getDefaultProject } from "../../lib/projects/server/get-default-project";
import { loadSamples } from "./load-samples";
import { type SampleProof, proveUnprovenSamples } from "./prove-samples";
import { seedSamples, type ToolsFor } from "./seed-samples";

export async function seedDatabase(db: Db, toolsFor: ToolsFor): Promise<string[]> {
  const project = await getDefaultProject(db);
  return seedSamples(db, { projectId: project.id, samples: loadSamples(), toolsFor });
}

/**
 * Enqueues a proof run for each sample environment that has never-proven scenarios. The queue is
 * connected only when there is something to send: on most starts every sample is proven already.
 */
export async function proveSeededSamples(db: Db, databaseUrl: string): Promise<SampleProof[]> {
  const project = await getDefaultProject(db);
  const held: { boss?: PgBoss; queue?: JobQueue } = {};
  const send: JobSender = async (def, payload, key) => {
    if (!held.queue) {
      held.boss = await startBoss(databaseUrl, { supervise: false });
      held.queue = jobQueueOn(held.boss);
    }
    return held.queue.send(def, payload, key);
  };
  try {
    const slugs = loadSamples().map((s) => s.slug);
    return await proveUnprovenSamples(db, send, project.id, slugs);
  } finally {
    await held.boss?.stop({ graceful: false, timeout: 2_000 });
  }
}
