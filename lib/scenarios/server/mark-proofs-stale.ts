import "server-only";
/**
 * Proofs go stale when the code they proved changes: a new environment version or a new validator
 * version. `findStaleScenarios` compares each scenario's latest proof with the current versions, so
 * staleness is detected even when the editor that made the change did not report it. Every writer
 * of a new version marks the proofs STALE inside its own transaction (`markEnvironmentProofsStale`,
 * the validator save), so no crash can leave VERIFIED on changed code; the callers (code editor,
 * validator editor, import, the environment page) then enqueue a proof run for the ids.
 */
import type { Db, Prisma } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { z } from "zod";
import { enqueueProofRun } from "./proof-run";

const IdsSchema = z.array(z.string()).catch([]);
type Reader = Db | Prisma.TransactionClient;

export async function findStaleScenarios(
  db: Reader,
  where: { environmentId: string } | { scenarioIds: string[] },
): Promise<string[]> {
  const scenarios = await db.scenario.findMany({
    where:
      "environmentId" in where ? { environmentId: where.environmentId } : { id: { in: where.scenarioIds } },
    select: {
      id: true,
      environment: { select: { currentVersionId: true } },
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
      proofs: {
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { environmentVersionId: true, validatorVersionIds: true },
      },
    },
  });
  return scenarios.flatMap((s) => {
    const latest = s.proofs[0];
    if (!latest) return [];
    const pinned = IdsSchema.parse(latest.validatorVersionIds);
    const current = s.validators.map((v) => v.currentVersionId ?? "");
    const same =
      latest.environmentVersionId === s.environment.currentVersionId &&
      pinned.length === current.length &&
      pinned.every((id, i) => id === current[i]);
    return same ? [] : [s.id];
  });
}

/** Marks proofs STALE (the scenario keeps its review status; the queue shows "re-proving"). */
export async function markProofsStale(db: Reader, scenarioIds: string[]): Promise<number> {
  if (scenarioIds.length === 0) return 0;
  const { count } = await db.scenario.updateMany({
    where: { id: { in: scenarioIds }, proofStatus: { in: ["VERIFIED", "FAILED"] } },
    data: { proofStatus: "STALE" },
  });
  return count;
}

/** In the transaction that gave the environment a new code version: its proven scenarios go STALE. */
export async function markEnvironmentProofsStale(
  tx: Prisma.TransactionClient,
  environmentId: string,
): Promise<number> {
  return markProofsStale(tx, await findStaleScenarios(tx, { environmentId }));
}

/**
 * The one call for editors (validator editor, code editor, environment page): find the scenarios
 * whose proof no longer matches the current code or validators, mark them STALE and enqueue one
 * proof run for them. Returns the run id, or null when nothing was stale.
 */
export async function requeueStaleProofs(
  db: Db,
  send: JobSender,
  input: { projectId: string; environmentId: string; createdById?: string | null },
): Promise<string | null> {
  const stale = await findStaleScenarios(db, { environmentId: input.environmentId });
  if (stale.length === 0) return null;
  await markProofsStale(db, stale);
  const run = await enqueueProofRun(db, send, {
    projectId: input.projectId,
    scenarioIds: stale,
    environmentId: input.environmentId,
    createdById: input.createdById,
    reason: "code or validators changed",
  });
  return run.id;
}
