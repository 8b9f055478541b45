import "server-only";
/**
 * Writes one row of the append-only audit log (ReviewDecision; a trigger refuses UPDATE/DELETE).
 * Always called inside the same transaction as the change it records, so the log can never
 * disagree with the data.
 */
import type { Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";

export type DecisionRecord = {
  projectId: string;
  actor: SessionUser;
  targetType: Prisma.ReviewDecisionCreateInput["targetType"];
  targetId: string;
  decision: Prisma.ReviewDecisionCreateInput["decision"];
  reason?: string;
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
};

export async function recordDecision(tx: Prisma.TransactionClient, record: DecisionRecord) {
  const { actor, before, after, ...rest } = record;
  return tx.reviewDecision.create({
    data: {
      ...rest,
      actorId: actor.id,
      reason: record.reason ?? "",
      before: before ?? undefined,
      after: after ?? undefined,
    },
  });
}
