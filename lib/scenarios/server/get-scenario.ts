import "server-only";
/** Reads for the scenario pages: one scenario with validators, latest proof and trajectories; and the list. */
import { AppError } from "@/lib/core/errors";
import type { Db, ProofStatus } from "@/lib/db";
import { findPinnedStrength } from "./find-weak-validators";
import { findPinnedProofStatus } from "./lock-scenario-pins";

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

export async function findScenarios(
  db: Db,
  projectId: string,
  filter: { proofStatus?: ProofStatus; environmentId?: string; take?: number; q?: string },
) {
  const q = filter.q ? { contains: filter.q, mode: "insensitive" as const } : null;
  return db.scenario.findMany({
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
      _count: { select: { validators: true, trajectories: true } },
    },
  });
}
