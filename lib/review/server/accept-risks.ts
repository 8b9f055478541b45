import "server-only";
/**
 * Why accepting an item needs a written override reason: a validator proof that failed, has not
 * run or is stale, or a quality check below its threshold. The queue shows these before the key is
 * pressed; decideItem enforces them, so no path accepts such an item in one keystroke.
 */
import type { Db, Prisma } from "@/lib/db";
import { type QualityInput, qualitySummary } from "../quality-summary";
import type { ReviewKind } from "../review.schema";

type Reader = Db | Prisma.TransactionClient;

const PROOF_RISK: Record<string, string | undefined> = {
  FAILED: "its validator proof failed",
  PENDING: "its validator proof has not run",
  STALE: "its validator proof is stale (code or checks changed since)",
};

export const proofRisks = (proofStatus: string): string[] =>
  PROOF_RISK[proofStatus] ? [PROOF_RISK[proofStatus]] : [];

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

export async function acceptRisks(db: Reader, kind: ReviewKind, id: string): Promise<string[]> {
  if (kind === "scenario") {
    const s = await db.scenario.findUnique({ where: { id }, select: { proofStatus: true } });
    return s ? proofRisks(s.proofStatus) : [];
  }
  if (kind === "environment") {
    const env = await db.environment.findUnique({ where: { id }, select: { currentVersionId: true } });
    if (!env?.currentVersionId) return [];
    const latest = await db.qualityCheck.findFirst({
      where: { environmentVersionId: env.currentVersionId },
      orderBy: { createdAt: "desc" },
      select: { threshold: true, probes: { select: { verdict: true, reviewerVerdict: true } } },
    });
    return qualityRisks(latest ?? undefined);
  }
  return [];
}
