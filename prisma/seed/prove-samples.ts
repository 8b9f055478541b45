/**
 * Sample environments arrive accepted but unproven: proof status comes only from proof rows for
 * the pinned versions, and a seed must not write proofs it did not run. So the first start
 * enqueues the same validator proof a reviewer would launch, one run per sample environment,
 * which the worker started next to the studio runs with progress on /runs. A restart enqueues
 * again only for samples that still have never-proven scenarios and no proof run waiting.
 */
import type { Db } from "../../lib/db";
import type { JobSender } from "../../lib/jobs/server/send-job";
import { enqueueProofRun } from "../../lib/scenarios/server/proof-run";

export type SampleProof = { slug: string; runId: string; scenarios: number };

export async function proveUnprovenSamples(
  db: Db,
  send: JobSender,
  projectId: string,
  slugs: string[],
): Promise<SampleProof[]> {
  const environments = await db.environment.findMany({
    where: { projectId, slug: { in: slugs } },
    select: { id: true, slug: true },
    orderBy: { slug: "asc" },
  });
  const waiting = await db.pipelineRun.findMany({
    where: { projectId, kind: "PROOF", status: { in: ["QUEUED", "RUNNING"] } },
    select: { input: true },
  });
  const waitingFor = new Set(waiting.map((r) => (r.input as { environmentId?: string }).environmentId));
  const launched: SampleProof[] = [];
  for (const env of environments) {
    if (waitingFor.has(env.id)) continue;
    const scenarios = await db.scenario.findMany({
      where: { environmentId: env.id, status: { not: "REJECTED" }, proofStatus: "PENDING" },
      select: { id: true },
      orderBy: { createdAt: "asc" },
    });
    if (scenarios.length === 0) continue;
    const run = await enqueueProofRun(db, send, {
      projectId,
      scenarioIds: scenarios.map((s) => s.id),
      environmentId: env.id,
      // The samples carry gold calls: their proofs replay them and need no model.
      // Strength (near-misses) is left to the next proof a person launches: measuring it here
      // would hold the sandbox pool for minutes while the studio is first used.
      config: { goldModel: null, nearMisses: false },
      createdById: null,
      reason: `sample ${env.slug}`,
    });
    launched.push({ slug: env.slug, runId: run.id, scenarios: scenarios.length });
  }
  return launched;
}
