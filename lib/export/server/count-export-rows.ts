import "server-only";
/** How many SFT trajectories a dataset version can export (the rows of the trajectory formats). */
import type { Db } from "@/lib/db";

/** Same rule as the export reader: passed the SFT filter, ran on the item's pinned environment version. */
export async function countSftTrajectories(db: Db, datasetVersionId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM "Trajectory" t
    JOIN "DatasetItem" i ON i."scenarioId" = t."scenarioId" AND i."environmentVersionId" = t."environmentVersionId"
    WHERE i."datasetVersionId" = ${datasetVersionId} AND t."sftPass" = true`;
  return Number(row?.n ?? 0);
}
