import "server-only";
import type { Db, Prisma } from "@/lib/db";
import type { AuditEntry } from "../review.schema";

export type { AuditEntry } from "../review.schema";

/** Decisions on the given targets (newest first): what a page shows as its audit trail. */
export async function findAuditLog(
  db: Db,
  projectId: string,
  targets: { targetType: Prisma.ReviewDecisionWhereInput["targetType"]; targetIds: string[] }[],
  take = 100,
): Promise<AuditEntry[]> {
  const rows = await db.reviewDecision.findMany({
    where: {
      projectId,
      OR: targets
        .filter((t) => t.targetIds.length)
        .map((t) => ({ targetType: t.targetType, targetId: { in: t.targetIds } })),
    },
    orderBy: { createdAt: "desc" },
    take,
    include: { actor: { select: { email: true, name: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    actor: r.actor ? `${r.actor.name} <${r.actor.email}>` : "local operator",
    targetType: r.targetType,
    targetId: r.targetId,
    decision: r.decision,
    reason: r.reason,
    before: r.before,
    after: r.after,
    createdAt: r.createdAt.toISOString(),
  }));
}
