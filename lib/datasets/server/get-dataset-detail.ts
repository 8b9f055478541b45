import "server-only";
/** Reads for the dataset pages: versions with parsed stats and changelog, and the edit choices. */
import type { Db } from "@/lib/db";
import { DatasetChangelogSchema, DatasetStatsSchema } from "../dataset.schema";
import { getDatasetOrThrow } from "./find-datasets";

/** Items listed for exclusion when editing; beyond this the CLI (`--exclude`) is the tool. */
const MAX_EDITABLE_ITEMS = 500;

export async function getDatasetDetail(db: Db, projectId: string, idOrName: string) {
  const dataset = await getDatasetOrThrow(db, projectId, idOrName);
  const rows = await db.datasetVersion.findMany({
    where: { datasetId: dataset.id },
    orderBy: { version: "desc" },
  });
  const versions = rows.map((v) => ({
    id: v.id,
    version: v.version,
    seed: v.seed,
    testRatio: v.testRatio,
    createdAt: v.createdAt,
    overrideReason: v.overrideReason,
    stats: DatasetStatsSchema.safeParse(v.stats).data ?? null,
    changelog: DatasetChangelogSchema.safeParse(v.changelog).data ?? null,
  }));
  const latest = versions[0];
  const items = latest
    ? await db.datasetItem.findMany({
        where: { datasetVersionId: latest.id },
        take: MAX_EDITABLE_ITEMS,
        orderBy: [{ scenario: { environment: { slug: "asc" } } }, { scenario: { externalId: "asc" } }],
        select: {
          scenarioId: true,
          split: true,
          scenario: {
            select: { externalId: true, task: true, environment: { select: { id: true, slug: true } } },
          },
        },
      })
    : [];
  return {
    dataset: {
      id: dataset.id,
      name: dataset.name,
      description: dataset.description,
      createdAt: dataset.createdAt,
    },
    versions,
    latestItems: items.map((i) => ({
      scenarioId: i.scenarioId,
      split: i.split,
      key: `${i.scenario.environment.slug}/${i.scenario.externalId}`,
      task: i.scenario.task,
      environmentId: i.scenario.environment.id,
    })),
  };
}
