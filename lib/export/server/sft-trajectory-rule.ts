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

/**
 * How many SFT trajectories a dataset version exports (the rows of the trajectory formats): the
 * rule above as one join. `idList` of the item's pins is the string elements of its array (none for
 * anything else), which the silent strict JSON path gives; a trajectory matches at most one item
 * (one per scenario in a version), so the join counts each once.
 */
export async function countSftTrajectories(db: Db, datasetVersionId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "DatasetItem" i
    JOIN "Trajectory" t ON t."scenarioId" = i."scenarioId" AND t."environmentVersionId" = i."environmentVersionId"
      AND t."sftPass" AND t."validatorVersionIds" =
        jsonb_path_query_array(i."validatorVersionIds", 'strict $[*] ? (@.type() == "string")', '{}', true)
    WHERE i."datasetVersionId" = ${datasetVersionId}`;
  return row?.n ?? 0;
}
