import type { Db } from "../lib/db";
import { ProofRunConfigSchema } from "../lib/scenarios/server/proof-run";

/**
 * Turns a queued proof run's near-miss measurement off: for tests that assert what a proof run
 * verifies, not how strong the checks are. The near-misses are most of a proof run's sandbox time
 * (each replays the gold path with one call changed); near-miss-strength tests keep them.
 */
export async function skipNearMisses(db: Db, runId: string): Promise<void> {
  const run = await db.pipelineRun.findUniqueOrThrow({ where: { id: runId }, select: { config: true } });
  const config = ProofRunConfigSchema.parse(run.config ?? {});
  await db.pipelineRun.update({ where: { id: runId }, data: { config: { ...config, nearMisses: false } } });
}
