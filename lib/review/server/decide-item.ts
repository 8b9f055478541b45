import "server-only";
/**
 * Accept or reject a review item (environment, scenario, flagged trajectory). The decision names
 * the versions the reviewer saw and is a compare-and-set on them: the item's rows are locked, the
 * versions compared, and the status, the audit row and the claim release written in the same
 * transaction, so a save racing the decision either lands before it (the decision is refused as
 * CONFLICT) or after it (the save sees ACCEPTED and sends the item back to review). An item
 * claimed by someone else cannot be decided (two reviewers never decide the same item).
 */
import { AppError } from "@/lib/core/errors";
import { type Db, Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { isSamePins } from "@/lib/scenarios/proof-status";
import { findPinnedProofStatus, lockScenarioPins } from "@/lib/scenarios/server/lock-scenario-pins";
import { type DecideItemInput, TARGET_OF } from "../review.schema";
import { environmentRisks, proofRisks } from "./accept-risks";
import { sendJob, type JobSender } from "@/lib/jobs/server/send-job";
import { decideRepair } from "@/lib/repair/server/decide-repair";
import { reproveAfterEdit } from "@/lib/scenarios/server/reprove-after-edit";
import { recordDecision } from "./record-decision";

type Tx = Prisma.TransactionClient;
type Outcome = {
  projectId: string;
  targetId: string;
  /** Why accepting needs a written override reason (computed for the locked, seen versions). */
  risks: string[];
  before: Prisma.InputJsonValue;
  after: Prisma.InputJsonValue;
  /** The environment whose scenarios' proofs this decision made stale (an accepted repair). */
  reprove?: string;
};
type Input<K extends DecideItemInput["kind"]> = Extract<DecideItemInput, { kind: K }>;

const moved = (what: string) =>
  new AppError("CONFLICT", `${what} changed since you reviewed it: reload and review the current version.`);

async function decideEnvironment(tx: Tx, input: Input<"environment">): Promise<Outcome> {
  await tx.$queryRaw`SELECT "id" FROM "Environment" WHERE "id" = ${input.id} FOR UPDATE`;
  const env = await tx.environment.findUnique({
    where: { id: input.id },
    include: { currentVersion: { select: { id: true, version: true } } },
  });
  if (!env?.currentVersion) throw new AppError("NOT_FOUND", "Environment was not found.");
  if (input.versionId !== env.currentVersion.id) throw moved("The code");
  const status = input.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED";
  // The decision names the version it was made on; a rejection withdraws any earlier acceptance.
  const acceptedVersionId = status === "ACCEPTED" ? env.currentVersion.id : null;
  await tx.environment.update({ where: { id: env.id }, data: { status, acceptedVersionId } });
  return {
    projectId: env.projectId,
    targetId: env.currentVersion.id,
    risks: status === "ACCEPTED" ? await environmentRisks(tx, env.currentVersion.id) : [],
    before: { status: env.status, acceptedVersionId: env.acceptedVersionId },
    after: {
      status,
      environmentId: env.id,
      version: env.currentVersion.version,
      versionId: env.currentVersion.id,
      acceptedVersionId,
    },
  };
}

async function decideScenario(tx: Tx, input: Input<"scenario">): Promise<Outcome> {
  const pins = await lockScenarioPins(tx, input.id);
  if (!pins) throw new AppError("NOT_FOUND", "Scenario was not found.");
  if (!isSamePins(pins, input)) throw moved("The scenario's checks or its environment's code");
  const scenario = await tx.scenario.findUniqueOrThrow({ where: { id: input.id } });
  const status = input.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED";
  const checks = await tx.validatorVersion.findMany({
    where: { id: { in: pins.validatorVersionIds } },
    select: { id: true, version: true },
  });
  const versionOf = new Map(checks.map((c) => [c.id, c.version]));
  await tx.scenario.update({
    where: { id: scenario.id },
    data: {
      status,
      acceptedValidatorVersionIds: status === "ACCEPTED" ? pins.validatorVersionIds : Prisma.DbNull,
    },
  });
  return {
    projectId: pins.projectId,
    targetId: scenario.id,
    risks: status === "ACCEPTED" ? proofRisks(await findPinnedProofStatus(tx, scenario.id, pins)) : [],
    before: {
      status: scenario.status,
      proofStatus: scenario.proofStatus,
      acceptedValidatorVersionIds: scenario.acceptedValidatorVersionIds ?? null,
    },
    after: {
      status,
      environmentVersionId: pins.environmentVersionId,
      validatorVersionIds: pins.validatorVersionIds,
      validatorVersions: pins.validatorVersionIds.map((id) => versionOf.get(id) ?? 0),
    },
  };
}

/** Trajectories have no status column: the decision itself (in the log) takes them off the queue. */
async function decideTrajectory(tx: Tx, input: Input<"trajectory">): Promise<Outcome> {
  const t = await tx.trajectory.findUnique({
    where: { id: input.id },
    include: { scenario: { select: { environment: { select: { projectId: true } } } } },
  });
  if (!t) throw new AppError("NOT_FOUND", "Trajectory was not found.");
  return {
    projectId: t.scenario.environment.projectId,
    targetId: t.id,
    risks: [],
    before: { flagReason: t.flagReason, reward: t.reward },
    after: { decision: input.decision },
  };
}

function decide(tx: Tx, input: DecideItemInput, actor: SessionUser): Promise<Outcome> {
  if (input.kind === "environment") return decideEnvironment(tx, input);
  if (input.kind === "scenario") return decideScenario(tx, input);
  if (input.kind === "repair") return decideRepair(tx, input, actor);
  return decideTrajectory(tx, input);
}

export async function decideItem(db: Db, input: DecideItemInput, actor: SessionUser) {
  return db.$transaction((tx) => decideItemInTx(tx, input, actor));
}

/** decideItem inside a caller's transaction (a corpus merge rejects several environments atomically). */
export async function decideItemInTx(tx: Tx, input: DecideItemInput, actor: SessionUser) {
  const claim = await tx.reviewClaim.findUnique({
    where: { targetType_targetId: { targetType: TARGET_OF[input.kind], targetId: input.id } },
  });
  if (claim && claim.userId !== actor.id && claim.expiresAt > new Date()) {
    throw new AppError("CONFLICT", "Another reviewer is working on this item right now.");
  }
  // Thrown after the update on purpose: the transaction rolls it back, and the risks are read
  // under the same locks as the versions they are about.
  const outcome = await decide(tx, input, actor);
  const { risks } = outcome;
  if (risks.length && !input.reason) {
    throw new AppError("INVALID_INPUT", `Accepting needs a written override reason: ${risks.join("; ")}.`, {
      details: { risks },
    });
  }
  const after = risks.length ? { ...(outcome.after as object), overridden: risks } : outcome.after;
  const row = await recordDecision(tx, {
    projectId: outcome.projectId,
    actor,
    targetType: TARGET_OF[input.kind],
    targetId: outcome.targetId,
    decision: input.decision,
    reason: input.reason,
    before: outcome.before,
    after,
  });
  if (claim)
    await tx.reviewClaim.delete({
      where: { targetType_targetId: { targetType: claim.targetType, targetId: claim.targetId } },
    });
  return {
    decisionId: row.id,
    kind: input.kind,
    id: input.id,
    decision: input.decision,
    ...(outcome.reprove ? { reprove: outcome.reprove } : {}),
  };
}

/**
 * decideItem, then (after the commit) the proof run an accepted repair's new versions need: they
 * are STALE until a proof VERIFIES exactly them, so the repaired scenario enters no dataset before.
 */
export async function decideReviewItem(
  db: Db,
  input: DecideItemInput,
  actor: SessionUser,
  send: JobSender = sendJob,
) {
  const { reprove, ...decided } = await decideItem(db, input, actor);
  if (!reprove) return { ...decided, proofRunId: null };
  const proof = await reproveAfterEdit(db, { environmentId: reprove, actorId: actor.id }, send);
  return { ...decided, proofRunId: proof.proofRunId, ...(proof.error ? { warning: proof.error } : {}) };
}
