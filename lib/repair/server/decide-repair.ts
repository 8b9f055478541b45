import "server-only";
/**
 * A reviewer's decision on a repair proposal, inside decideItem's transaction (which logs it,
 * checks the claim and releases it). Accepting is allowed only for a PROVEN proposal, needs no
 * override reason, and is a compare-and-set on the versions the proposal was made against: under
 * the scenario's pin locks, the environment version and every validator version must still be
 * those, else CONFLICT and nothing changes. It then saves each changed check as a new validator
 * version (author: the model; message: what it fixed) exactly as an edit does — the proof goes
 * STALE, an ACCEPTED scenario goes back to review — so the repaired scenario enters a dataset only
 * once a proof VERIFIES its new pins and a reviewer accepts it. An environment-code repair saves a
 * new environment version the same way (apply-environment-repair.ts). Rejecting records why.
 */
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { recordDecision } from "@/lib/review/server/record-decision";
import { idList } from "@/lib/review/acceptance";
import { isSamePins } from "@/lib/scenarios/proof-status";
import { lockScenarioPins } from "@/lib/scenarios/server/lock-scenario-pins";
import { markScenarioEdited } from "@/lib/scenarios/server/save-validator-version";
import { type CheckChange, CheckChangesSchema } from "../repair.schema";
import { applyEnvironmentRepair } from "./apply-environment-repair";

type Tx = Prisma.TransactionClient;
type RepairDecision = { id: string; decision: "ACCEPT" | "REJECT"; reason: string };

const moved = () =>
  new AppError(
    "CONFLICT",
    "The scenario's checks or its environment's code changed since this repair was proposed: it no longer applies. Repair the current version instead.",
  );

async function lockProposal(tx: Tx, id: string) {
  await tx.$queryRaw`SELECT "id" FROM "RepairProposal" WHERE "id" = ${id} FOR UPDATE`;
  const proposal = await tx.repairProposal.findUnique({ where: { id } });
  if (!proposal) throw new AppError("NOT_FOUND", `There is no repair proposal with the id "${id}".`);
  if (proposal.status === "ACCEPTED" || proposal.status === "REJECTED")
    throw new AppError("CONFLICT", `This repair proposal was already ${proposal.status.toLowerCase()}.`);
  return proposal;
}

/** One new validator version per change, swapped in only while its base is still current. */
async function applyChange(
  tx: Tx,
  change: CheckChange,
  ctx: { scenarioId: string; projectId: string; model: string; message: string; actor: SessionUser },
) {
  const base = await tx.validatorVersion.findUniqueOrThrow({ where: { id: change.baseVersionId } });
  const created = await tx.validatorVersion.create({
    data: {
      validatorId: change.validatorId,
      version: base.version + 1,
      code: change.after,
      checkItem: base.checkItem,
      authorId: null,
      producedBy: `repair:${ctx.model}`,
      message: ctx.message,
      parentVersionId: base.id,
    },
  });
  const swapped = await tx.validator.updateMany({
    where: { id: change.validatorId, currentVersionId: base.id },
    data: { currentVersionId: created.id },
  });
  if (swapped.count === 0) throw moved();
  await markScenarioEdited(tx, ctx.scenarioId, { replaced: base.id, by: created.id });
  await recordDecision(tx, {
    projectId: ctx.projectId,
    actor: ctx.actor,
    targetType: "VALIDATOR",
    targetId: change.validatorId,
    decision: "EDIT",
    reason: ctx.message,
    before: { versionId: base.id, version: base.version },
    after: { versionId: created.id, version: created.version, producedBy: `repair:${ctx.model}` },
  });
  return created.id;
}

export async function decideRepair(tx: Tx, input: RepairDecision, actor: SessionUser) {
  const proposal = await lockProposal(tx, input.id);
  const before = { status: proposal.status };
  const decided = { decidedById: actor.id, decidedAt: new Date(), decisionReason: input.reason };
  if (input.decision === "REJECT") {
    await tx.repairProposal.update({ where: { id: proposal.id }, data: { status: "REJECTED", ...decided } });
    return {
      projectId: proposal.projectId,
      targetId: proposal.id,
      risks: [],
      before,
      after: { status: "REJECTED" },
    };
  }
  if (proposal.status !== "PROVEN")
    throw new AppError(
      "INVALID_INPUT",
      "This repair did not prove; it is kept as evidence and cannot be applied.",
    );
  if (proposal.kind === "ENVIRONMENT") {
    const applied = await applyEnvironmentRepair(tx, proposal, actor);
    await tx.repairProposal.update({
      where: { id: proposal.id },
      data: { status: "ACCEPTED", appliedVersionIds: [applied.versionId], ...decided },
    });
    return {
      projectId: proposal.projectId,
      targetId: proposal.id,
      risks: [],
      before,
      after: {
        status: "ACCEPTED",
        environmentId: proposal.environmentId,
        appliedVersionIds: [applied.versionId],
        version: applied.version,
      },
      reprove: proposal.environmentId,
    };
  }
  if (!proposal.scenarioId) throw new AppError("INVALID_INPUT", "This proposal names no scenario.");
  const pins = await lockScenarioPins(tx, proposal.scenarioId);
  const proposed = {
    environmentVersionId: proposal.environmentVersionId,
    validatorVersionIds: idList(proposal.validatorVersionIds) ?? [],
  };
  if (!pins || !isSamePins(pins, proposed)) throw moved();
  const changes = CheckChangesSchema.parse(proposal.changes);
  const ctx = {
    scenarioId: proposal.scenarioId,
    projectId: proposal.projectId,
    model: proposal.model,
    message: `Repair by ${proposal.model}: ${proposal.summary}`.slice(0, 500),
    actor,
  };
  const applied: string[] = [];
  for (const change of changes) applied.push(await applyChange(tx, change, ctx));
  await tx.repairProposal.update({
    where: { id: proposal.id },
    data: { status: "ACCEPTED", appliedVersionIds: applied, ...decided },
  });
  return {
    projectId: proposal.projectId,
    targetId: proposal.id,
    risks: [],
    before,
    after: { status: "ACCEPTED", scenarioId: proposal.scenarioId, appliedVersionIds: applied },
    reprove: proposal.environmentId,
  };
}
