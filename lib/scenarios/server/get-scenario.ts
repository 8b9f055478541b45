import "server-only";
/** Reads for the scenario pages: one scenario with validators, latest proof and trajectories; and the list. */
import { AppError } from "@/lib/core/errors";
import type { Db, ProofStatus } from "@/lib/db";
import { findPinnedStrength } from "./find-weak-validators";
import { findPinnedProofStatus } from "./lock-scenario-pins";
import { containsText } from "@/lib/core/contains-text";

export async function getScenarioOrThrow(db: Db, projectId: string, id: string) {
  const scenario = await db.scenario.findFirst({
    where: { id, environment: { projectId } },
    include: {
      environment: { select: { id: true, name: true, slug: true, currentVersionId: true } },
      validators: {
        orderBy: { position: "asc" },
        include: { currentVersion: { select: { id: true, version: true, code: true } } },
      },
      proofs: { orderBy: { createdAt: "desc" }, take: 1 },
      trajectories: {
        orderBy: { createdAt: "desc" },
        take: 50,
        select: {
          id: true,
          model: true,
          mode: true,
          reward: true,
          status: true,
          stepCount: true,
          sftPass: true,
          createdAt: true,
          rolloutIndex: true,
        },
      },
    },
  });
  if (!scenario) throw new AppError("NOT_FOUND", `Scenario "${id}" was not found.`);
  // Shown and decided on: the proof of exactly the current versions, never an older proof's.
  const pins = {
    environmentVersionId: scenario.environment.currentVersionId ?? "",
    validatorVersionIds: scenario.validators.flatMap((v) => (v.currentVersion ? [v.currentVersion.id] : [])),
  };
  const proofStatus = await findPinnedProofStatus(db, scenario.id, pins);
  // Strength likewise: measured for exactly these versions, or not at all.
  const strength = await findPinnedStrength(db, scenario.id, pins);
  return { ...scenario, proofStatus, strength };
}

/**
 * The Scenarios page: the newest `take` (200) matching scenarios with their check and rollout
 * counts. The counts are grouped for the listed ids only: a relation `_count` compiles to a
 * GROUP BY over the whole Validator and Trajectory tables, which is seconds at a million rows.
 */
export async function findScenarios(
  db: Db,
  projectId: string,
  filter: { proofStatus?: ProofStatus; environmentId?: string; take?: number; q?: string },
) {
  const q = filter.q ? containsText(filter.q) : null;
  const rows = await db.scenario.findMany({
    where: {
      environment: { projectId },
      // Search: the task, the scenario id, the environment's name or env_id.
      ...(q
        ? {
            OR: [{ task: q }, { externalId: q }, { environment: { name: q } }, { environment: { slug: q } }],
          }
        : {}),
      ...(filter.proofStatus ? { proofStatus: filter.proofStatus } : {}),
      ...(filter.environmentId ? { environmentId: filter.environmentId } : {}),
    },
    orderBy: [{ updatedAt: "desc" }],
    take: filter.take ?? 200,
    select: {
      id: true,
      externalId: true,
      task: true,
      status: true,
      proofStatus: true,
      proofReasons: true,
      environment: { select: { id: true, name: true, slug: true } },
    },
  });
  const ids = rows.map((r) => r.id);
  const [validators, trajectories] = await Promise.all([
    db.validator.groupBy({ by: ["scenarioId"], where: { scenarioId: { in: ids } }, _count: { _all: true } }),
    db.trajectory.groupBy({ by: ["scenarioId"], where: { scenarioId: { in: ids } }, _count: { _all: true } }),
  ]);
  const checks = new Map(validators.map((v) => [v.scenarioId, v._count._all]));
  const rollouts = new Map(trajectories.map((t) => [t.scenarioId, t._count._all]));
  return rows.map((r) => ({
    ...r,
    _count: { validators: checks.get(r.id) ?? 0, trajectories: rollouts.get(r.id) ?? 0 },
  }));
}
