import "server-only";
/**
 * Bulk confirmation of the judge's verdicts on a quality check's probes. Only probes no reviewer
 * has judged yet are confirmed: a verdict someone set (an override, perhaps seconds before) is
 * never replaced by a bulk action they did not see. The condition sits in each UPDATE, so a
 * concurrent override that commits first makes this one skip the probe instead of overwriting it.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import type { ConfirmJudgeInput } from "../review.schema";
import { recordDecision } from "./record-decision";

export type ConfirmJudgeResult = {
  /** Probes whose judge verdict is now confirmed by this call. */
  confirmed: string[];
  /** Probes a reviewer had already judged (left as they were). */
  alreadyReviewed: string[];
};

export async function confirmJudgeVerdicts(
  db: Db,
  input: ConfirmJudgeInput,
  actor: SessionUser,
): Promise<ConfirmJudgeResult> {
  const ids = [...new Set(input.probeIds)];
  return db.$transaction(async (tx) => {
    const probes = await tx.qualityProbe.findMany({
      where: { id: { in: ids } },
      select: {
        id: true,
        verdict: true,
        qualityCheck: {
          select: { environmentVersion: { select: { environment: { select: { projectId: true } } } } },
        },
      },
      orderBy: { index: "asc" },
    });
    // All or nothing: a list naming a probe that does not exist is refused before any write.
    if (probes.length !== ids.length) {
      const found = new Set(probes.map((p) => p.id));
      const missing = ids.filter((id) => !found.has(id));
      throw new AppError("NOT_FOUND", `Probe ${missing.slice(0, 3).join(", ")} was not found.`);
    }
    const result: ConfirmJudgeResult = { confirmed: [], alreadyReviewed: [] };
    for (const probe of probes) {
      const { count } = await tx.qualityProbe.updateMany({
        where: { id: probe.id, reviewerVerdict: null },
        data: { reviewerVerdict: probe.verdict },
      });
      if (count === 0) {
        result.alreadyReviewed.push(probe.id);
        continue;
      }
      result.confirmed.push(probe.id);
      await recordDecision(tx, {
        projectId: probe.qualityCheck.environmentVersion.environment.projectId,
        actor,
        targetType: "QUALITY_PROBE",
        targetId: probe.id,
        decision: "CONFIRM",
        before: { judgeVerdict: probe.verdict, reviewerVerdict: null },
        after: { reviewerVerdict: probe.verdict },
      });
    }
    return result;
  });
}
