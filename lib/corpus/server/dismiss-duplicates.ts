import "server-only";
/**
 * "These are not duplicates": stores every pair of the given environment versions (smaller id first,
 * byte order) so the map leaves them out, with a COMMENT decision per version in the audit log.
 * A dismissal belongs to versions: after an edit the new version is compared afresh.
 */
import type { SessionUser } from "@/lib/auth/auth.schema";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { recordDecision } from "@/lib/review/server/record-decision";
import type { DismissDuplicatesInput } from "../corpus.schema";

export async function dismissDuplicates(
  db: Db,
  projectId: string,
  input: DismissDuplicatesInput,
  actor: SessionUser,
) {
  const ids = [...new Set(input.versionIds)].sort();
  if (ids.length < 2)
    throw new AppError("INVALID_INPUT", "Dismissing needs at least two different versions.");
  return db.$transaction(async (tx) => {
    const versions = await tx.environmentVersion.findMany({
      where: { id: { in: ids }, environment: { projectId } },
      select: { id: true, version: true, environment: { select: { slug: true } } },
    });
    if (versions.length !== ids.length)
      throw new AppError("NOT_FOUND", "An environment version was not found.");
    const pairs = ids.flatMap((a, i) =>
      ids.slice(i + 1).map((b) => ({ projectId, versionIdA: a, versionIdB: b, actorId: actor.id })),
    );
    const created = await tx.duplicateDismissal.createMany({ data: pairs, skipDuplicates: true });
    const label = (v: (typeof versions)[number]) => `${v.environment.slug} v${v.version}`;
    for (const v of versions)
      await recordDecision(tx, {
        projectId,
        actor,
        targetType: "ENVIRONMENT_VERSION",
        targetId: v.id,
        decision: "COMMENT",
        reason: `Not a duplicate of ${versions
          .filter((o) => o !== v)
          .map(label)
          .join(", ")} (corpus map)${input.reason ? `: ${input.reason}` : ""}`,
        after: { notDuplicateOf: versions.filter((o) => o !== v).map((o) => o.id) },
      });
    return { dismissedPairs: created.count };
  });
}
