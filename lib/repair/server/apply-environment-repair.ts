import "server-only";
/**
 * Accepting a PROVEN environment-code repair, inside decideItem's transaction: a compare-and-set
 * on the environment version it was proposed for. Under the environment's row lock its head must
 * still be that version, else CONFLICT (not retryable) and nothing changes. It then saves the
 * changed code as a new immutable version exactly as an edit does (author: the model; message:
 * what it fixed; `producedBy` `repair:<model>`; the tools the sandbox extracted when it was
 * proposed): the scenarios' proofs go STALE, and the environment waits in the review queue
 * (IN_REVIEW; an accepted one keeps its accepted version) — the new version is not accepted by this.
 */
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { writeEnvironmentSignature } from "@/lib/corpus/server/write-environment-signature";
import { sha256 } from "@/lib/environments/hash";
import { recordDecision } from "@/lib/review/server/record-decision";
import { markEnvironmentProofsStale } from "@/lib/scenarios/server/mark-proofs-stale";
import { z } from "zod";
import { EnvironmentChangeSchema } from "../repair.schema";

type Tx = Prisma.TransactionClient;

const moved = (proposedFor: number, head: number | null) =>
  new AppError(
    "CONFLICT",
    `The environment's code changed since this repair was proposed (it was made for version ${proposedFor}; version ${head ?? "?"} is current now): it no longer applies. Repair the current version instead.`,
    { retryable: false },
  );

export async function applyEnvironmentRepair(
  tx: Tx,
  proposal: {
    id: string;
    projectId: string;
    environmentId: string;
    environmentVersionId: string;
    changes: unknown;
    model: string;
    summary: string;
  },
  actor: SessionUser,
) {
  const [change] = z.array(EnvironmentChangeSchema).parse(proposal.changes);
  if (!change) throw new AppError("INVALID_INPUT", "This proposal changes no code.");
  await tx.$queryRaw`SELECT "id" FROM "Environment" WHERE "id" = ${proposal.environmentId} FOR UPDATE`;
  const env = await tx.environment.findUnique({
    where: { id: proposal.environmentId },
    include: { currentVersion: { select: { version: true } } },
  });
  if (!env) throw new AppError("NOT_FOUND", "The environment of this repair was deleted.");
  const base = await tx.environmentVersion.findUniqueOrThrow({
    where: { id: proposal.environmentVersionId },
  });
  if (env.currentVersionId !== base.id) throw moved(base.version, env.currentVersion?.version ?? null);
  const message = `Repair by ${proposal.model}: ${proposal.summary}`.slice(0, 500);
  const producedBy = `repair:${proposal.model}`;
  const latest = await tx.environmentVersion.aggregate({
    where: { environmentId: env.id },
    _max: { version: true },
  });
  const created = await tx.environmentVersion.create({
    data: {
      environmentId: env.id,
      version: (latest._max.version ?? 0) + 1,
      className: base.className,
      source: change.after,
      sourceHash: sha256(change.after),
      tools: change.tools as Prisma.InputJsonValue,
      stateSchema: base.stateSchema as Prisma.InputJsonValue,
      rules: base.rules as Prisma.InputJsonValue,
      operations: base.operations as Prisma.InputJsonValue,
      metadata: base.metadata as Prisma.InputJsonValue,
      producedBy,
      authorId: null,
      message,
      parentVersionId: base.id,
    },
  });
  await writeEnvironmentSignature(tx, created);
  const swapped = await tx.environment.updateMany({
    where: { id: env.id, currentVersionId: base.id },
    data: {
      currentVersionId: created.id,
      toolCount: change.tools.length,
      // The repaired code waits for review like an edit; an accepted environment keeps which
      // version was accepted, and one the quality check failed is reviewable again.
      ...(env.status === "ACCEPTED" ? { status: "IN_REVIEW", acceptedVersionId: base.id } : {}),
      ...(env.status === "FAILED" ? { status: "IN_REVIEW" } : {}),
    },
  });
  if (swapped.count === 0) throw moved(base.version, null);
  await markEnvironmentProofsStale(tx, env.id);
  await recordDecision(tx, {
    projectId: proposal.projectId,
    actor,
    targetType: "ENVIRONMENT_VERSION",
    targetId: created.id,
    decision: "EDIT",
    reason: message,
    before: { versionId: base.id, version: base.version },
    after: {
      versionId: created.id,
      version: created.version,
      toolCount: change.tools.length,
      producedBy,
      repairProposalId: proposal.id,
    },
  });
  return { versionId: created.id, version: created.version };
}
