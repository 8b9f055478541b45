import "server-only";
import type { Db } from "@/lib/db";
import { findAuditLog } from "./find-audit-log";

/** A version's quality checks (newest first) with probes, and the audit trail of its review. */
export async function getQualityReview(db: Db, projectId: string, environmentId: string, versionId: string) {
  const checks = await db.qualityCheck.findMany({
    where: { environmentVersionId: versionId, environmentVersion: { environmentId } },
    orderBy: { createdAt: "desc" },
    include: { probes: { orderBy: { index: "asc" } } },
  });
  const versionsWithChecks = await db.environmentVersion.findMany({
    where: { environmentId, qualityChecks: { some: {} } },
    orderBy: { version: "desc" },
    select: { id: true, version: true },
  });
  const probeIds = checks.flatMap((c) => c.probes.map((p) => p.id));
  const audit = await findAuditLog(db, projectId, [
    { targetType: "ENVIRONMENT_VERSION", targetIds: [versionId] },
    { targetType: "QUALITY_PROBE", targetIds: probeIds },
  ]);
  return { checks, versionsWithChecks, audit };
}
