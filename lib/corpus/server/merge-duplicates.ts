import "server-only";
/**
 * Merging a duplicate cluster: keep one environment, reject the others as its duplicates. Each
 * rejection is an ordinary review decision (decideItemInTx: compare-and-set on the version the
 * curator saw, claims respected, a REJECT row in the audit log naming the kept environment), all in
 * one transaction, so a merge happens whole or not at all and each rejection can be undone alone.
 */
import type { SessionUser } from "@/lib/auth/auth.schema";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { decideItemInTx } from "@/lib/review/server/decide-item";
import type { MergeDuplicatesInput } from "../corpus.schema";

export async function mergeDuplicates(
  db: Db,
  projectId: string,
  input: MergeDuplicatesInput,
  actor: SessionUser,
) {
  return db.$transaction(async (tx) => {
    // Every environment of the cluster is locked up front, in id order: two curators merging the
    // same cluster the opposite ways queue behind each other (no deadlock), and the second sees
    // the one it meant to keep already rejected.
    const all = [input.keep.environmentId, ...input.reject.map((r) => r.environmentId)].sort();
    await tx.$queryRaw`SELECT "id" FROM "Environment" WHERE "id" = ANY(${all}::text[]) ORDER BY "id" FOR UPDATE`;
    const keep = await tx.environment.findFirst({
      where: { id: input.keep.environmentId, projectId },
      include: { currentVersion: { select: { id: true, version: true } } },
    });
    if (!keep) throw new AppError("NOT_FOUND", "The environment to keep was not found.");
    if (keep.currentVersion?.id !== input.keep.versionId)
      throw new AppError("CONFLICT", `${keep.slug} changed since you looked: reload the corpus map.`);
    if (keep.status === "REJECTED")
      throw new AppError("CONFLICT", `${keep.slug} is rejected: keep an environment that is not.`);
    const ids = input.reject.map((r) => r.environmentId);
    const found = await tx.environment.count({ where: { id: { in: ids }, projectId } });
    if (found !== ids.length) throw new AppError("NOT_FOUND", "An environment to reject was not found.");
    const reason = `Duplicate of ${keep.slug} v${keep.currentVersion.version} (merged in the corpus map)${
      input.reason ? `: ${input.reason}` : ""
    }`;
    const decisions = [];
    for (const r of input.reject)
      decisions.push(
        await decideItemInTx(
          tx,
          { kind: "environment", id: r.environmentId, versionId: r.versionId, decision: "REJECT", reason },
          actor,
        ),
      );
    return {
      keptEnvironmentId: keep.id,
      rejected: decisions.length,
      decisionIds: decisions.map((d) => d.decisionId),
    };
  });
}
