import "server-only";
/**
 * Saves an edited check function as a new immutable ValidatorVersion, with the same optimistic
 * locking as environment code (compare-and-set on Validator.currentVersionId). The scenario's proof
 * becomes STALE: it was run with the old code, so it says nothing about the new one until a new
 * proof run.
 */
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { analysisMarkers, hasBlockingMarkers } from "@/lib/environments/markers";
import { type AnalyzeDeps, isUniqueViolation } from "@/lib/environments/server/save-environment-version";
import { recordDecision } from "@/lib/review/server/record-decision";
import type { SaveValidatorVersionInput } from "../validator.schema";

async function validatorConflict(db: Db, validatorId: string) {
  const v = await db.validator.findUnique({ where: { id: validatorId }, include: { currentVersion: true } });
  const head = v?.currentVersion;
  const author = head?.authorId
    ? await db.user.findUnique({ where: { id: head.authorId }, select: { email: true } })
    : null;
  return new AppError(
    "CONFLICT",
    `Not saved: version ${head?.version ?? "?"} by ${author?.email ?? head?.producedBy ?? "someone"} replaced the version you started from. Compare with it below, then re-apply your edit.`,
    {
      details: head
        ? {
            headVersionId: head.id,
            headVersion: head.version,
            headSource: head.code,
            headAuthor: author?.email ?? head.producedBy,
            headMessage: head.message,
            headCreatedAt: head.createdAt.toISOString(),
          }
        : undefined,
    },
  );
}

/**
 * The proof is stale; an ACCEPTED scenario goes back to review ("changed since accepted") and
 * remembers the validator versions that were accepted (the current ones before this edit).
 */
export async function markScenarioEdited(
  tx: Prisma.TransactionClient,
  scenarioId: string,
  edit: { replaced: string; by: string },
) {
  const scenario = await tx.scenario.findUniqueOrThrow({
    where: { id: scenarioId },
    select: {
      status: true,
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
    },
  });
  if (scenario.status !== "ACCEPTED")
    return tx.scenario.update({ where: { id: scenarioId }, data: { proofStatus: "STALE" } });
  const accepted = scenario.validators.flatMap((v) =>
    v.currentVersionId ? [v.currentVersionId === edit.by ? edit.replaced : v.currentVersionId] : [],
  );
  return tx.scenario.update({
    where: { id: scenarioId },
    data: { proofStatus: "STALE", status: "IN_REVIEW", acceptedValidatorVersionIds: accepted },
  });
}

/** The checklist text lives on the validator and, in order, in the scenario's checklist. */
async function renameCheck(
  tx: Prisma.TransactionClient,
  validator: { id: string; position: number; scenario: { id: string } },
  checkItem: string,
) {
  await tx.validator.update({ where: { id: validator.id }, data: { checkItem } });
  const scenario = await tx.scenario.findUniqueOrThrow({
    where: { id: validator.scenario.id },
    select: { checklist: true },
  });
  const checklist = Array.isArray(scenario.checklist) ? scenario.checklist.map(String) : [];
  if (validator.position < checklist.length) checklist[validator.position] = checkItem;
  await tx.scenario.update({ where: { id: validator.scenario.id }, data: { checklist } });
}

export async function saveValidatorVersion(
  db: Db,
  input: SaveValidatorVersionInput,
  actor: SessionUser,
  deps: AnalyzeDeps,
) {
  const validator = await db.validator.findUnique({
    where: { id: input.validatorId },
    include: {
      currentVersion: true,
      scenario: { select: { id: true, environment: { select: { projectId: true } } } },
    },
  });
  if (!validator?.currentVersion) throw new AppError("NOT_FOUND", "Validator was not found.");
  if (validator.currentVersionId !== input.baseVersionId) throw await validatorConflict(db, validator.id);
  const base = validator.currentVersion;
  const textChanged = input.checkItem !== undefined && input.checkItem !== validator.checkItem;
  if (base.code === input.code && !textChanged)
    throw new AppError("INVALID_INPUT", "Nothing to save: the code and the checklist text are unchanged.");
  if (
    input.mergeBaseVersionId &&
    !(await db.validatorVersion.findFirst({
      where: { id: input.mergeBaseVersionId, validatorId: validator.id },
      select: { id: true },
    }))
  ) {
    throw new AppError("INVALID_INPUT", "The merge names a version of another check.");
  }
  const analysis = await deps.analyze({ source: input.code, className: "_" });
  if (!analysis.ok)
    throw new AppError("UNAVAILABLE", `The sandbox could not analyse the code: ${analysis.error.message}`, {
      retryable: analysis.error.retryable,
    });
  // Check functions have no class: only syntax and import errors apply.
  const markers = analysisMarkers({ ...analysis.value, classFound: true, hasAsync: false }, "_");
  if (hasBlockingMarkers(markers))
    throw new AppError("INVALID_INPUT", "Not saved: fix the errors marked in the code first.", {
      details: { markers },
    });
  try {
    return await db.$transaction(async (tx) => {
      const created = await tx.validatorVersion.create({
        data: {
          validatorId: validator.id,
          version: base.version + 1,
          code: input.code,
          checkItem: input.checkItem ?? validator.checkItem,
          authorId: actor.id,
          producedBy: "user",
          message: input.message,
          parentVersionId: base.id,
          mergedParentVersionId: input.mergeBaseVersionId ?? null,
        },
      });
      const swapped = await tx.validator.updateMany({
        where: { id: validator.id, currentVersionId: base.id },
        data: { currentVersionId: created.id },
      });
      if (swapped.count === 0) throw new AppError("CONFLICT", "stale");
      if (textChanged) await renameCheck(tx, validator, input.checkItem ?? validator.checkItem);
      await markScenarioEdited(tx, validator.scenario.id, { replaced: base.id, by: created.id });
      await recordDecision(tx, {
        projectId: validator.scenario.environment.projectId,
        actor,
        targetType: "VALIDATOR",
        targetId: validator.id,
        decision: "EDIT",
        reason: input.message,
        before: { versionId: base.id, version: base.version, checkItem: validator.checkItem },
        after: {
          versionId: created.id,
          version: created.version,
          checkItem: input.checkItem ?? validator.checkItem,
          ...(input.mergeBaseVersionId ? { mergedFromVersionId: input.mergeBaseVersionId } : {}),
        },
      });
      return { versionId: created.id, version: created.version };
    });
  } catch (error) {
    if (isUniqueViolation(error) || (error instanceof AppError && error.code === "CONFLICT"))
      throw await validatorConflict(db, validator.id);
    throw error;
  }
}
