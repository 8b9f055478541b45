import "server-only";
/**
 * The contents of one dataset version with its pins as version numbers (environment vN, checks
 * vN…), as the dataset page shows them. Bounded: beyond MAX_LISTED the CLI export is the tool.
 */
import type { Db } from "@/lib/db";
import { idList } from "@/lib/review/acceptance";
import type { VersionItem } from "../dataset.schema";

const MAX_LISTED = 500;

export type { VersionItem } from "../dataset.schema";

export async function findVersionItems(db: Db, datasetVersionId: string): Promise<VersionItem[]> {
  const rows = await db.datasetItem.findMany({
    where: { datasetVersionId },
    take: MAX_LISTED,
    orderBy: [{ scenario: { environment: { slug: "asc" } } }, { scenario: { externalId: "asc" } }],
    select: {
      scenarioId: true,
      split: true,
      validatorVersionIds: true,
      overridden: true,
      environmentVersion: { select: { version: true } },
      scenario: { select: { externalId: true, environment: { select: { slug: true } } } },
    },
  });
  const ids = rows.flatMap((r) => idList(r.validatorVersionIds) ?? []);
  const numbers = new Map(
    (
      await db.validatorVersion.findMany({ where: { id: { in: ids } }, select: { id: true, version: true } })
    ).map((v) => [v.id, v.version]),
  );
  return rows.map((r) => ({
    scenarioId: r.scenarioId,
    key: `${r.scenario.environment.slug}/${r.scenario.externalId}`,
    split: r.split,
    overridden: r.overridden,
    environmentVersion: r.environmentVersion.version,
    validatorVersions: (idList(r.validatorVersionIds) ?? []).map((id) => numbers.get(id) ?? 0),
  }));
}
