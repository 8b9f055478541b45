import "server-only";
/**
 * The one writer of a changed environment version, shared by an edit and an accepted repair. Inside
 * the caller's transaction it stores the code as the next immutable version on top of `base` (which
 * keeps the class, state schema, rules, operations and metadata), makes it current with a
 * compare-and-set (the head must still be `base`, so two writes on one base cannot both win), sends
 * an accepted environment back to the review queue remembering which version was accepted, marks
 * the scenarios' proofs STALE and logs the change as an EDIT.
 */
import type { Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { writeEnvironmentSignature } from "@/lib/corpus/server/write-environment-signature";
import { recordDecision } from "@/lib/review/server/record-decision";
import { markEnvironmentProofsStale } from "@/lib/scenarios/server/mark-proofs-stale";
import { sha256 } from "../hash";

type Tx = Prisma.TransactionClient;
type Base = Prisma.EnvironmentVersionGetPayload<object>;

export type EnvironmentVersionChange = {
  projectId: string;
  source: string;
  tools: readonly unknown[];
  producedBy: string;
  authorId: string | null;
  message: string;
  mergedParentVersionId?: string | null;
  /** Whether an environment the quality check failed becomes reviewable again. */
  reopenFailed?: boolean;
  /** What the audit row says besides the new version and its tool count. */
  audit?: Record<string, string>;
  /** The error to throw when the head is no longer `base` (the transaction then rolls back). */
  headMoved: () => Promise<Error> | Error;
};

export async function writeEnvironmentVersion(
  tx: Tx,
  base: Base,
  change: EnvironmentVersionChange,
  actor: SessionUser,
) {
  const environmentId = base.environmentId;
  const latest = await tx.environmentVersion.aggregate({ where: { environmentId }, _max: { version: true } });
  const created = await tx.environmentVersion.create({
    data: {
      environmentId,
      version: (latest._max.version ?? 0) + 1,
      className: base.className,
      source: change.source,
      sourceHash: sha256(change.source),
      tools: change.tools as Prisma.InputJsonValue,
      stateSchema: base.stateSchema as Prisma.InputJsonValue,
      rules: base.rules as Prisma.InputJsonValue,
      operations: base.operations as Prisma.InputJsonValue,
      metadata: base.metadata as Prisma.InputJsonValue,
      producedBy: change.producedBy,
      authorId: change.authorId,
      message: change.message,
      parentVersionId: base.id,
      mergedParentVersionId: change.mergedParentVersionId ?? null,
    },
  });
  await writeEnvironmentSignature(tx, created);
  const swapped = await tx.environment.updateMany({
    where: { id: environmentId, currentVersionId: base.id },
    data: { currentVersionId: created.id, toolCount: change.tools.length },
  });
  if (swapped.count === 0) throw await change.headMoved();
  // Acceptance belongs to a version: the changed code goes back to the review queue, remembering
  // which version was accepted (lib/review/acceptance.ts).
  await tx.environment.updateMany({
    where: { id: environmentId, status: "ACCEPTED" },
    data: { status: "IN_REVIEW", acceptedVersionId: base.id },
  });
  if (change.reopenFailed)
    await tx.environment.updateMany({
      where: { id: environmentId, status: "FAILED" },
      data: { status: "IN_REVIEW" },
    });
  // The proofs of the old code say nothing about the new one, from the moment it is current.
  await markEnvironmentProofsStale(tx, environmentId);
  await recordDecision(tx, {
    projectId: change.projectId,
    actor,
    targetType: "ENVIRONMENT_VERSION",
    targetId: created.id,
    decision: "EDIT",
    reason: change.message,
    before: { versionId: base.id, version: base.version },
    after: {
      versionId: created.id,
      version: created.version,
      toolCount: change.tools.length,
      ...change.audit,
    },
  });
  return created;
}
