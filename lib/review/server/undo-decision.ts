import "server-only";
/**
 * Undo of a reviewer's last accept/reject, itself a logged decision (UNDO): the item gets back
 * the state the decision's `before` recorded and returns to the queue. Only the actor's latest
 * decision can be undone (an undo is not undone), and only while nobody changed the item since.
 */
import { AppError } from "@/lib/core/errors";
import { type Db, Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { z } from "zod";
import { recordDecision } from "./record-decision";

type Tx = Prisma.TransactionClient;
type Undone = Prisma.ReviewDecisionGetPayload<object>;

const EnvBefore = z.object({
  status: z.enum(["DRAFT", "GENERATING", "CHECKING", "IN_REVIEW", "ACCEPTED", "REJECTED", "FAILED"]),
  acceptedVersionId: z.string().nullable().optional(),
});
const ScenarioBefore = z.object({
  status: z.enum(["DRAFT", "IN_REVIEW", "VERIFIED", "ACCEPTED", "REJECTED"]),
  acceptedValidatorVersionIds: z.array(z.string()).nullable().optional(),
});
const EnvAfter = z.object({ environmentId: z.string(), status: z.string() });
const ScenarioAfter = z.object({ status: z.string() });

const changedSince = () =>
  new AppError(
    "CONFLICT",
    "The item changed since that decision; it cannot be undone. Decide it again instead.",
  );

async function restoreEnvironment(tx: Tx, d: Undone) {
  const after = EnvAfter.parse(d.after);
  const before = EnvBefore.parse(d.before);
  const env = await tx.environment.findUnique({ where: { id: after.environmentId } });
  if (!env || env.status !== after.status || env.currentVersionId !== d.targetId) throw changedSince();
  await tx.environment.update({
    where: { id: env.id },
    data: { status: before.status, acceptedVersionId: before.acceptedVersionId ?? null },
  });
  return { kind: "environment" as const, id: env.id, restored: before };
}

async function restoreScenario(tx: Tx, d: Undone) {
  const after = ScenarioAfter.parse(d.after);
  const before = ScenarioBefore.parse(d.before);
  const s = await tx.scenario.findUnique({ where: { id: d.targetId } });
  if (!s || s.status !== after.status) throw changedSince();
  await tx.scenario.update({
    where: { id: s.id },
    data: {
      status: before.status,
      acceptedValidatorVersionIds: before.acceptedValidatorVersionIds ?? Prisma.DbNull,
    },
  });
  return { kind: "scenario" as const, id: s.id, restored: before };
}

/** Trajectories' review state is the log itself: the UNDO row puts them back on the queue. */
const restoreTrajectory = (_tx: Tx, d: Undone) =>
  Promise.resolve({ kind: "trajectory" as const, id: d.targetId, restored: d.before });

const RESTORERS: Partial<
  Record<
    Undone["targetType"],
    (
      tx: Tx,
      d: Undone,
    ) => Promise<{ kind: "environment" | "scenario" | "trajectory"; id: string; restored: unknown }>
  >
> = {
  ENVIRONMENT_VERSION: restoreEnvironment,
  SCENARIO: restoreScenario,
  TRAJECTORY: restoreTrajectory,
};

export async function undoLastDecision(db: Db, projectId: string, actor: SessionUser) {
  if (!actor.id) throw new AppError("INVALID_INPUT", "Sign in to undo decisions.");
  return db.$transaction(async (tx) => {
    const last = await tx.reviewDecision.findFirst({
      where: {
        projectId,
        actorId: actor.id,
        decision: { in: ["ACCEPT", "REJECT", "UNDO"] },
        targetType: { in: ["ENVIRONMENT_VERSION", "SCENARIO", "TRAJECTORY"] },
      },
      orderBy: { createdAt: "desc" },
    });
    if (!last || last.decision === "UNDO")
      throw new AppError("NOT_FOUND", "Nothing to undo: your last decision was already undone.");
    const restore = RESTORERS[last.targetType];
    if (!restore) throw new AppError("NOT_FOUND", "Nothing to undo.");
    const result = await restore(tx, last);
    const row = await recordDecision(tx, {
      projectId,
      actor,
      targetType: last.targetType,
      targetId: last.targetId,
      decision: "UNDO",
      reason: `undo of ${last.decision.toLowerCase()}`,
      before: last.after ?? null,
      after: { undoneDecisionId: last.id, restored: result.restored as Prisma.InputJsonValue },
    });
    return {
      decisionId: row.id,
      undone: { id: last.id, decision: last.decision },
      kind: result.kind,
      id: result.id,
    };
  });
}
