import "server-only";
/**
 * Archives an environment (a failed run's leftover or one nobody wants) or restores it. Nothing is
 * deleted: its versions, scenarios and decisions stay, lists hide it unless asked to show archived
 * ones, and the audit log records who did it and why in the same transaction.
 */
import type { SessionUser } from "@/lib/auth/auth.schema";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { recordDecision } from "@/lib/review/server/record-decision";
import type { ArchiveEnvironmentInput } from "../environment.schema";

export async function archiveEnvironment(
  db: Db,
  projectId: string,
  input: ArchiveEnvironmentInput,
  actor: SessionUser,
): Promise<{ archivedAt: string | null }> {
  return db.$transaction(async (tx) => {
    const env = await tx.environment.findFirst({
      where: { id: input.environmentId, projectId },
      select: { id: true, archivedAt: true },
    });
    if (!env) throw new AppError("NOT_FOUND", "environment not found");
    if ((env.archivedAt !== null) === input.archived)
      return { archivedAt: env.archivedAt?.toISOString() ?? null };
    const archivedAt = input.archived ? new Date() : null;
    await tx.environment.update({ where: { id: env.id }, data: { archivedAt } });
    await recordDecision(tx, {
      projectId,
      actor,
      targetType: "ENVIRONMENT",
      targetId: env.id,
      decision: input.archived ? "ARCHIVE" : "UNARCHIVE",
      reason: input.reason,
      before: { archivedAt: env.archivedAt?.toISOString() ?? null },
      after: { archivedAt: archivedAt?.toISOString() ?? null },
    });
    return { archivedAt: archivedAt?.toISOString() ?? null };
  });
}
