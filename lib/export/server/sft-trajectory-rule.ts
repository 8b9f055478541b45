import "server-only";
/**
 * The one rule for which trajectories a dataset item exports: they passed the SFT filter and ran on
 * exactly the item's pins — its environment version and its validator versions in checklist order,
 * so every exported trajectory was graded by the checks the dataset holds. The export reader and
 * the row count (startExport's "nothing to export" refusal) both use this filter.
 */
import type { Db, Prisma } from "@/lib/db";
import { idList } from "@/lib/review/acceptance";

export type PinnedItem = { scenarioId: string; environmentVersionId: string; validatorVersionIds: unknown };

export const sftTrajectoryWhere = (items: PinnedItem[]): Prisma.TrajectoryWhereInput => ({
  sftPass: true,
  OR: items.map((i) => ({
    scenarioId: i.scenarioId,
    environmentVersionId: i.environmentVersionId,
    validatorVersionIds: { equals: idList(i.validatorVersionIds) ?? [] },
  })),
});

const COUNT_BATCH = 500;

/** How many SFT trajectories a dataset version exports (the rows of the trajectory formats). */
export async function countSftTrajectories(db: Db, datasetVersionId: string): Promise<number> {
  let total = 0;
  let after = "";
  for (;;) {
    const items = await db.datasetItem.findMany({
      where: { datasetVersionId, id: { gt: after } },
      orderBy: { id: "asc" },
      take: COUNT_BATCH,
      select: { id: true, scenarioId: true, environmentVersionId: true, validatorVersionIds: true },
    });
    if (items.length === 0) return total;
    total += await db.trajectory.count({ where: sftTrajectoryWhere(items) });
    after = items.at(-1)?.id ?? after;
  }
}
