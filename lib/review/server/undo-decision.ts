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
import { isSamePins } from "@/lib/scenarios/proof-status";
import { lockScenarioPins } from "@/lib/scenarios/server/lock-scenario-pins";
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
const EnvAfter = z.object({ environmentId: z.string(), status: z.enum(["ACCEPTED", "REJECTED"]) });
/** A decision logged without the versions it was made on cannot be undone safely: refused. */
const ScenarioAfter = z.object({
  status: z.string(),
  environmentVersionId: z.string(),
  validatorVersionIds: z.array(z.string()),
});

const changedSince = () =>
  new AppError(
    "CONFLICT",
    "The item changed since that decision; it cannot be undone. Decide it again instead.",
  );

/** Compare-and-set: restored only while the code is still the version the decision was made on. */
async function restoreEnvironment(tx: Tx, d: Undone) {
  const after = EnvAfter.parse(d.after);
  const before = EnvBefore.parse(d.before);
  const { count } = await tx.environment.updateMany({
    where: { id: after.environmentId, status: after.status, currentVersionId: d.targetId },
    data: { status: before.status, acceptedVersionId: before.acceptedVersionId ?? null },
  });
  if (count === 0) throw changedSince();
  return { kind: "environment" as const, id: after.environmentId, restored: before };
}

/**
 * Restored only while the scenario's checks and its environment's code are the versions the
 * decision was made on (read under the pins' locks): undoing a rejection must not accept checks
 * someone edited after it.
 */
async function restoreScenario(tx: Tx, d: Undone) {
  const after = ScenarioAfter.safeParse(d.after);
  const before = ScenarioBefore.parse(d.before);
  if (!after.success) throw changedSince();
  const pins = await lockScenarioPins(tx, d.targetId);
  if (!pins || !isSamePins(pins, after.data)) throw changedSince();
  const s = await tx.scenario.findUnique({ where: { id: d.targetId } });
  if (!s || s.status !== after.data.status) throw changedSince();
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

/**
 * A rejected repair proposal goes back to the queue; an accepted one saved versions that others may
 * have built on, so it is not undone (edit the check or the code, or reject the item, instead).
 */
async function restoreRepair(tx: Tx, d: Undone) {
  if (d.decision !== "REJECT")
    throw new AppError(
      "CONFLICT",
      "An accepted repair saved new versions and cannot be undone; edit the check or the code, or reject the item, instead.",
    );
  const { count } = await tx.repairProposal.updateMany({
    where: { id: d.targetId, status: "REJECTED" },
    data: { status: "PROVEN", decidedById: null, decidedAt: null, decisionReason: "" },
  });
  if (count === 0) throw changedSince();
  return { kind: "repair" as const, id: d.targetId, restored: { status: "PROVEN" } };
}

const RESTORERS: Partial<
  Record<
    Undone["targetType"],
    (
      tx: Tx,
      d: Undone,
    ) => Promise<{
      kind: "environment" | "scenario" | "trajectory" | "repair";
      id: string;
      restored: unknown;
    }>
  >
> = {
  ENVIRONMENT_VERSION: restoreEnvironment,
  SCENARIO: restoreScenario,
  TRAJECTORY: restoreTrajectory,
  REPAIR_PROPOSAL: restoreRepair,
};

export async function undoLastDecision(db: Db, projectId: string, actor: SessionUser) {
  if (!actor.id) throw new AppError("INVALID_INPUT", "Sign in to undo decisions.");
  return db.$transaction(async (tx) => {
    const last = await tx.reviewDecision.findFirst({
      where: {
        projectId,
        actorId: actor.id,
        decision: { in: ["ACCEPT", "REJECT", "UNDO"] },
        targetType: { in: ["ENVIRONMENT_VERSION", "SCENARIO", "TRAJECTORY", "REPAIR_PROPOSAL"] },
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
