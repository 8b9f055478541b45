/**
 * Seeds the default project with the sample environments. Tool schemas are extracted from each
 * sample's source by the sandbox (Python's ast, never in this process).
 */
import type { Db } from "../../lib/db";
import { startBoss } from "../../lib/jobs/boss";
import { jobQueueOn } from "../../lib/jobs/server/send-job";
import { getDefaultProject } from "../../lib/projects/server/get-default-project";
import { loadSamples } from "./load-samples";
import { type SampleProof, proveUnprovenSamples } from "./prove-samples";
import { seedSamples, type ToolsFor } from "./seed-samples";

export async function seedDatabase(db: Db, toolsFor: ToolsFor): Promise<string[]> {
  const project = await getDefaultProject(db);
  return seedSamples(db, { projectId: project.id, samples: loadSamples(), toolsFor });
}

/** Enqueues a proof run for each sample environment that has never-proven scenarios. */
export async function proveSeededSamples(db: Db, databaseUrl: string): Promise<SampleProof[]> {
  const project = await getDefaultProject(db);
  const boss = await startBoss(databaseUrl, { supervise: false });
  try {
    const slugs = loadSamples().map((s) => s.slug);
    return await proveUnprovenSamples(db, jobQueueOn(boss).send, project.id, slugs);
  } finally {
    await boss.stop({ graceful: false, timeout: 2_000 });
  }
}
