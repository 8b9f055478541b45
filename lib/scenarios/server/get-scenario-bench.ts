import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { findAuditLog } from "@/lib/review/server/find-audit-log";

/** Everything the scenario page shows: task, proof, validators (head code), trajectories, audit. */
export async function getScenarioBenchOrThrow(db: Db, projectId: string, id: string) {
  const scenario = await db.scenario.findFirst({
    where: { id, environment: { projectId } },
    include: {
      environment: { select: { id: true, name: true } },
      validators: {
        orderBy: { position: "asc" },
        include: { currentVersion: { select: { id: true, version: true, code: true } } },
      },
      trajectories: {
        orderBy: { createdAt: "desc" },
        take: 100,
        select: { id: true, model: true, reward: true, flagReason: true, createdAt: true },
      },
    },
  });
  if (!scenario) throw new AppError("NOT_FOUND", `Scenario "${id}" was not found.`);
  const audit = await findAuditLog(db, projectId, [
    { targetType: "SCENARIO", targetIds: [scenario.id] },
    { targetType: "VALIDATOR", targetIds: scenario.validators.map((v) => v.id) },
    { targetType: "TRAJECTORY", targetIds: scenario.trajectories.map((t) => t.id) },
  ]);
  return { scenario, audit };
}
