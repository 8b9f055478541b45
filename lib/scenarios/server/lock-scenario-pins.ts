import "server-only";
/**
 * Reads a scenario's current pins (its environment's current version, its validators' current
 * versions in checklist order) under row locks held until the transaction ends, so a decision or a
 * proof written in the same transaction cannot land on versions that a concurrent save is
 * replacing. Lock order, the same everywhere to avoid deadlocks: environment, validators, scenario
 * (saves lock the environment or a validator first, then the scenario to mark its proof stale).
 * `FOR SHARE` lets readers through and makes a save wait; a locking read always sees the latest
 * committed row, so a save that committed first is seen here.
 */
import type { Prisma } from "@/lib/db";
import { type PinnedProofStatus, type ProofPins, pinnedProofStatus, proofRowOf } from "../proof-status";

type Tx = Prisma.TransactionClient;

export type LockedScenario = {
  environmentVersionId: string;
  validatorVersionIds: string[];
  scenarioId: string;
  environmentId: string;
  projectId: string;
};

/** Null when the scenario does not exist or its environment has no code yet. */
export async function lockScenarioPins(tx: Tx, scenarioId: string): Promise<LockedScenario | null> {
  const [env] = await tx.$queryRaw<{ id: string; projectId: string; currentVersionId: string | null }[]>`
    SELECT e."id", e."projectId", e."currentVersionId" FROM "Environment" e
    JOIN "Scenario" s ON s."environmentId" = e."id" WHERE s."id" = ${scenarioId} FOR SHARE OF e`;
  if (!env?.currentVersionId) return null;
  const validators = await tx.$queryRaw<{ currentVersionId: string | null }[]>`
    SELECT "currentVersionId" FROM "Validator" WHERE "scenarioId" = ${scenarioId}
    ORDER BY "position" FOR SHARE`;
  await tx.$queryRaw`SELECT "id" FROM "Scenario" WHERE "id" = ${scenarioId} FOR UPDATE`;
  return {
    scenarioId,
    environmentId: env.id,
    projectId: env.projectId,
    environmentVersionId: env.currentVersionId,
    validatorVersionIds: validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
  };
}

/** The proof status of exactly these pins, from the scenario's proof rows (lib/scenarios/proof-status.ts). */
export async function findPinnedProofStatus(
  db: Pick<Tx, "validatorProof">,
  scenarioId: string,
  pins: ProofPins,
): Promise<PinnedProofStatus> {
  const proofs = await db.validatorProof.findMany({
    where: { scenarioId },
    orderBy: { createdAt: "desc" },
    select: { environmentVersionId: true, validatorVersionIds: true, status: true },
  });
  return pinnedProofStatus(proofs.map(proofRowOf), pins);
}
