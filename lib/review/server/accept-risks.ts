import "server-only";
/**
 * Why accepting an item needs a written override reason: a validator proof that failed, has not
 * run or is stale for exactly the versions being accepted (lib/scenarios/proof-status.ts), or a
 * quality check below its threshold on the code version being accepted. The queue shows these
 * before the key is pressed; decideItem enforces them, so no path accepts such an item in one
 * keystroke.
 */
import type { Db, Prisma } from "@/lib/db";
import type { PinnedProofStatus } from "@/lib/scenarios/proof-status";
import { type QualityInput, qualitySummary } from "../quality-summary";

type Reader = Db | Prisma.TransactionClient;

const PROOF_RISK: Record<PinnedProofStatus, string | undefined> = {
  VERIFIED: undefined,
  FAILED: "its validator proof failed",
  PENDING: "its validator proof has not run",
  STALE: "its validator proof is stale (code or checks changed since)",
};

export const proofRisks = (status: PinnedProofStatus): string[] =>
  PROOF_RISK[status] ? [PROOF_RISK[status]] : [];

/** The latest check on the version, recomputed with reviewer overrides (lib/review/quality-summary.ts). */
export function qualityRisks(latest: QualityInput | undefined): string[] {
  if (!latest) return [];
  const q = qualitySummary(latest);
  return q.passed
    ? []
    : [
        `its quality check is below the threshold (not-fail rate ${Math.round(q.rate * 100)} % < ${Math.round(q.threshold * 100)} %)`,
      ];
}

export async function environmentRisks(db: Reader, environmentVersionId: string): Promise<string[]> {
  const latest = await db.qualityCheck.findFirst({
    where: { environmentVersionId },
    orderBy: { createdAt: "desc" },
    select: { threshold: true, probes: { select: { verdict: true, reviewerVerdict: true } } },
  });
  return qualityRisks(latest ?? undefined);
}
