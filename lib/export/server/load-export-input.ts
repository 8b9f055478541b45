import "server-only";
/**
 * Reads a dataset version for the exporters: environments once (few), scenarios streamed in
 * batches per environment version with keyset paging, so memory stays bounded by the batch size
 * however large the dataset. Order is deterministic (env id, then task id): the same version
 * always exports to the same bytes.
 */
import { type Db, Prisma } from "@/lib/db";
import { exportEnvIds } from "../env-id";
import type { ExportDatasetInfo, ExportEnvironment, ExportScenario, OpenAiTool } from "../export.schema";
import { toExportScenarios } from "./to-export-scenario";

export const EXPORT_BATCH = 500;

type EnvRow = { versionId: string; env: ExportEnvironment };

export async function loadExportEnvironments(db: Db, datasetVersionId: string): Promise<EnvRow[]> {
  const pinned = await db.datasetItem.findMany({
    where: { datasetVersionId },
    distinct: ["environmentVersionId"],
    select: { environmentVersionId: true },
  });
  const versions = await db.environmentVersion.findMany({
    where: { id: { in: pinned.map((p) => p.environmentVersionId) } },
    include: { environment: { select: { slug: true, name: true, description: true, domain: true } } },
  });
  // Two versions of one environment in a dataset keep distinct env ids (older ones get @vN).
  const envIds = exportEnvIds(
    versions.map((v) => ({ id: v.id, slug: v.environment.slug, version: v.version })),
  );
  return versions
    .map((v) => ({
      versionId: v.id,
      env: {
        envId: envIds.get(v.id) ?? v.environment.slug,
        name: v.environment.name,
        description: v.environment.description,
        domain: v.environment.domain,
        className: v.className,
        source: v.source,
        sourceHash: v.sourceHash,
        version: v.version,
        tools: v.tools as OpenAiTool[],
        stateSchema: v.stateSchema,
        rules: v.rules,
        operations: v.operations,
        metadata: (v.metadata ?? {}) as Record<string, unknown>,
      },
    }))
    .sort((a, b) => a.env.envId.localeCompare(b.env.envId));
}

export async function* streamExportScenarios(
  db: Db,
  datasetVersionId: string,
  envs: EnvRow[],
  withTrajectories: boolean,
): AsyncGenerator<ExportScenario> {
  for (const { versionId, env } of envs) {
    let after = "";
    for (;;) {
      const items = await db.datasetItem.findMany({
        where: { datasetVersionId, environmentVersionId: versionId, scenario: { externalId: { gt: after } } },
        orderBy: { scenario: { externalId: "asc" } },
        take: EXPORT_BATCH,
        select: {
          split: true,
          validatorVersionIds: true,
          environmentVersionId: true,
          difficulty: true,
          nearMissStrength: true,
          scenario: {
            select: {
              id: true,
              externalId: true,
              task: true,
              initialState: true,
              goldCalls: true,
            },
          },
        },
      });
      if (items.length === 0) break;
      yield* await toExportScenarios(db, env.envId, items, withTrajectories);
      after = items[items.length - 1]?.scenario.externalId ?? after;
      if (items.length < EXPORT_BATCH) break;
    }
  }
}

export async function loadDatasetInfo(
  db: Db,
  datasetVersionId: string,
): Promise<ExportDatasetInfo & { total: number }> {
  const v = await db.datasetVersion.findUniqueOrThrow({
    where: { id: datasetVersionId },
    include: { dataset: true, _count: { select: { items: true } } },
  });
  // Items of one version are written together: all carry strength, or (older versions) none.
  const withStrength = await db.datasetItem.findFirst({
    where: { datasetVersionId, nearMissStrength: { not: Prisma.DbNull } },
    select: { id: true },
  });
  return {
    name: v.dataset.name,
    version: v.version,
    description: v.description,
    seed: v.seed,
    testRatio: v.testRatio,
    createdAt: v.createdAt.toISOString(),
    stats: v.stats,
    ...(withStrength ? { hasNearMissStrength: true } : {}),
    total: v._count.items,
  };
}
