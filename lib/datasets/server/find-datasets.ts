import "server-only";
/** Reads for the dataset pages and the CLI. */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { DatasetChangelogSchema, DatasetStatsSchema } from "../dataset.schema";

export async function findDatasets(db: Db, projectId: string) {
  return db.dataset.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    include: {
      versions: {
        orderBy: { version: "desc" },
        take: 1,
        select: { id: true, version: true, stats: true, createdAt: true },
      },
    },
  });
}

export async function getDatasetOrThrow(db: Db, projectId: string, name: string) {
  const dataset = await db.dataset.findFirst({
    where: { projectId, OR: [{ name }, { id: name }] },
    include: {
      versions: {
        orderBy: { version: "desc" },
        select: { id: true, version: true, seed: true, testRatio: true, stats: true, createdAt: true },
      },
    },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `Dataset "${name}" was not found.`);
  return dataset;
}

/** One version (the latest when `version` is omitted) with parsed stats and changelog. */
export async function getDatasetVersionOrThrow(db: Db, projectId: string, name: string, version?: number) {
  const dataset = await getDatasetOrThrow(db, projectId, name);
  const row = await db.datasetVersion.findFirst({
    where: { datasetId: dataset.id, ...(version ? { version } : {}) },
    orderBy: { version: "desc" },
    include: { exports: { orderBy: { createdAt: "desc" } } },
  });
  if (!row)
    throw new AppError("NOT_FOUND", `Dataset "${name}" has no version ${version ?? ""}.`.replace(" .", "."));
  return {
    dataset,
    version: row,
    stats: DatasetStatsSchema.safeParse(row.stats).data ?? null,
    changelog: DatasetChangelogSchema.safeParse(row.changelog).data ?? null,
  };
}
