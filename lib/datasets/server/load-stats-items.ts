import "server-only";
import type { Prisma } from "@/lib/db";
import type { StatsItem } from "../stats";

/** The items of a version in the shape the statistics and changelog need. */
export async function loadStatsItems(
  tx: Prisma.TransactionClient,
  datasetVersionId: string,
): Promise<StatsItem[]> {
  const rows = await tx.datasetItem.findMany({
    where: { datasetVersionId },
    select: {
      split: true,
      environmentVersionId: true,
      validatorVersionIds: true,
      scenario: {
        select: {
          externalId: true,
          task: true,
          _count: { select: { validators: true } },
          environment: { select: { slug: true, domain: true, toolCount: true } },
        },
      },
    },
  });
  return rows.map((r) => ({
    key: `${r.scenario.environment.slug}/${r.scenario.externalId}`,
    environment: r.scenario.environment.slug,
    domain: r.scenario.environment.domain,
    split: r.split,
    task: r.scenario.task,
    checkCount: r.scenario._count.validators,
    toolCount: r.scenario.environment.toolCount,
    pin: [
      r.environmentVersionId,
      ...(Array.isArray(r.validatorVersionIds) ? r.validatorVersionIds.map(String) : []),
    ].join(","),
  }));
}
