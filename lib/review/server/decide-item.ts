import "server-only";
/**
 * Accept or reject a review item (environment, scenario, flagged trajectory). The status change and
 * the audit row are written in one transaction; the reviewer's claim on the item is released. An
 * item claimed by someone else cannot be decided (two reviewers never decide the same item).
 */
import { AppError } from "@/lib/core/errors";
import { type Db, Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { type DecideItemInput, TARGET_OF } from "../review.schema";
import { acceptRisks } from "./accept-risks";
import { recordDecision } from "./record-decision";

type Tx = Prisma.TransactionClient;
type Outcome = {
  projectId: string;
  targetId: string;
  before: Prisma.InputJsonValue;
  after: Prisma.InputJsonValue;
};

async function decideEnvironment(tx: Tx, input: DecideItemInput): Promise<Outcome> {
  const env = await tx.environment.findUnique({
    where: { id: input.id },
    include: { currentVersion: { select: { id: true, version: true } } },
  });
  if (!env?.currentVersion) throw new AppError("NOT_FOUND", "Environment was not found.");
  if (input.versionId && input.versionId !== env.currentVersion.id) {
    throw new AppError(
      "CONFLICT",
      "The code changed since you reviewed it: reload and review the new version.",
    );
  }
  const status = input.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED";
  // The decision names the version it was made on; a rejection withdraws any earlier acceptance.
  const acceptedVersionId = status === "ACCEPTED" ? env.currentVersion.id : null;
  await tx.environment.update({ where: { id: env.id }, data: { status, acceptedVersionId } });
  return {
    projectId: env.projectId,
    targetId: env.currentVersion.id,
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

async function decideScenario(tx: Tx, input: DecideItemInput): Promise<Outcome> {
  const scenario = await tx.scenario.findUnique({
    where: { id: input.id },
    include: {
      environment: { select: { projectId: true, currentVersionId: true } },
      validators: {
        orderBy: { position: "asc" },
        select: { currentVersion: { select: { id: true, version: true } } },
      },
    },
  });
  if (!scenario) throw new AppError("NOT_FOUND", "Scenario was not found.");
  const status = input.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED";
  const checks = scenario.validators.flatMap((v) => (v.currentVersion ? [v.currentVersion] : []));
  const accepted = status === "ACCEPTED" ? checks.map((c) => c.id) : Prisma.DbNull;
  await tx.scenario.update({
    where: { id: scenario.id },
    data: { status, acceptedValidatorVersionIds: accepted },
  });
  return {
    projectId: scenario.environment.projectId,
    targetId: scenario.id,
    before: {
      status: scenario.status,
      proofStatus: scenario.proofStatus,
      acceptedValidatorVersionIds: scenario.acceptedValidatorVersionIds ?? null,
    },
    after: {
      status,
      environmentVersionId: scenario.environment.currentVersionId,
      validatorVersionIds: checks.map((c) => c.id),
      validatorVersions: checks.map((c) => c.version),
    },
  };
}

/** Trajectories have no status column: the decision itself (in the log) takes them off the queue. */
async function decideTrajectory(tx: Tx, input: DecideItemInput): Promise<Outcome> {
  const t = await tx.trajectory.findUnique({
    where: { id: input.id },
    include: { scenario: { select: { environment: { select: { projectId: true } } } } },
  });
  if (!t) throw new AppError("NOT_FOUND", "Trajectory was not found.");
  return {
    projectId: t.scenario.environment.projectId,
    targetId: t.id,
    before: { flagReason: t.flagReason, reward: t.reward },
    after: { decision: input.decision },
  };
}

const DECIDERS = { environment: decideEnvironment, scenario: decideScenario, trajectory: decideTrajectory };

export async function decideItem(db: Db, input: DecideItemInput, actor: SessionUser) {
  return db.$transaction(async (tx) => {
    const claim = await tx.reviewClaim.findUnique({
      where: { targetType_targetId: { targetType: TARGET_OF[input.kind], targetId: input.id } },
    });
    if (claim && claim.userId !== actor.id && claim.expiresAt > new Date()) {
      throw new AppError("CONFLICT", "Another reviewer is working on this item right now.");
    }
    const risks = input.decision === "ACCEPT" ? await acceptRisks(tx, input.kind, input.id) : [];
    if (risks.length && !input.reason) {
      throw new AppError("INVALID_INPUT", `Accepting needs a written override reason: ${risks.join("; ")}.`, {
        details: { risks },
      });
    }
    const outcome = await DECIDERS[input.kind](tx, input);
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
    return { decisionId: row.id, kind: input.kind, id: input.id, decision: input.decision };
  });
}
