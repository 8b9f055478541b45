import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import type { ReviewProbeInput } from "../review.schema";
import { recordDecision } from "./record-decision";

/** The reviewer confirms the judge's verdict on one probe call, or overrides it. Audited. */
export async function reviewQualityProbe(db: Db, input: ReviewProbeInput, actor: SessionUser) {
  return db.$transaction(async (tx) => {
    const probe = await tx.qualityProbe.findUnique({
      where: { id: input.probeId },
      include: {
        qualityCheck: {
          select: { environmentVersion: { select: { environment: { select: { projectId: true } } } } },
        },
      },
    });
    if (!probe) throw new AppError("NOT_FOUND", "Probe was not found.");
    const decision = input.verdict === probe.verdict ? "CONFIRM" : "OVERRIDE";
    await tx.qualityProbe.update({ where: { id: probe.id }, data: { reviewerVerdict: input.verdict } });
    await recordDecision(tx, {
      projectId: probe.qualityCheck.environmentVersion.environment.projectId,
      actor,
      targetType: "QUALITY_PROBE",
      targetId: probe.id,
      decision,
      before: { judgeVerdict: probe.verdict, reviewerVerdict: probe.reviewerVerdict },
      after: { reviewerVerdict: input.verdict },
    });
    return { probeId: probe.id, decision, reviewerVerdict: input.verdict };
  });
}
