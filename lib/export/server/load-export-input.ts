import "server-only";
/**
 * Reads a dataset version for the exporters: environments once, scenarios streamed in batches of
 * about EXPORT_BATCH items (small environment versions together, large ones by keyset paging), so
 * memory stays bounded by the batch size however large the dataset. Order is deterministic (env id, then task id): the same version
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

const ITEM_SELECT = {
  split: true,
  validatorVersionIds: true,
  environmentVersionId: true,
  difficulty: true,
  nearMissStrength: true,
  scenario: { select: { id: true, externalId: true, task: true, initialState: true, goldCalls: true } },
} satisfies Prisma.DatasetItemSelect;

/** An environment version with more items than a batch: keyset pages of one batch each. */
async function* streamLargeEnvironment(
  db: Db,
  datasetVersionId: string,
  { versionId, env }: EnvRow,
  withTrajectories: boolean,
  batch: number,
): AsyncGenerator<ExportScenario> {
  let after = "";
  for (;;) {
    const items = await db.datasetItem.findMany({
      where: { datasetVersionId, environmentVersionId: versionId, scenario: { externalId: { gt: after } } },
      orderBy: { scenario: { externalId: "asc" } },
      take: batch,
      select: ITEM_SELECT,
    });
    if (items.length === 0) return;
    yield* await toExportScenarios(db, env.envId, items, withTrajectories);
    after = items[items.length - 1]?.scenario.externalId ?? after;
    if (items.length < batch) return;
  }
}

/** Several small environment versions (at most one batch of items together) in one query, emitted
 * in `group` order, each in task-id order as Postgres sorts it. */
async function* streamEnvironmentGroup(
  db: Db,
  datasetVersionId: string,
  group: EnvRow[],
  withTrajectories: boolean,
): AsyncGenerator<ExportScenario> {
  const items = await db.datasetItem.findMany({
    where: { datasetVersionId, environmentVersionId: { in: group.map((g) => g.versionId) } },
    orderBy: { scenario: { externalId: "asc" } },
    select: ITEM_SELECT,
  });
  const envIds = new Map(group.map((g) => [g.versionId, g.env.envId]));
  const scenarios = await toExportScenarios(db, envIds, items, withTrajectories);
  const byVersion = new Map<string, ExportScenario[]>();
  scenarios.forEach((s, i) => {
    const versionId = items[i]?.environmentVersionId ?? "";
    const list = byVersion.get(versionId);
    if (list) list.push(s);
    else byVersion.set(versionId, [s]);
  });
  for (const { versionId } of group) yield* byVersion.get(versionId) ?? [];
}

/**
 * The version's items in export order (environments as `envs` lists them, then task id). Small
 * environment versions are read together, about EXPORT_BATCH items per query: a 100,000-item
 * version over 10,000 environments is then 200 queries, not 10,000.
 */
export async function* streamExportScenarios(
  db: Db,
  datasetVersionId: string,
  envs: EnvRow[],
  withTrajectories: boolean,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportScenario> {
  const counts = await db.datasetItem.groupBy({
    by: ["environmentVersionId"],
    where: { datasetVersionId },
    _count: { _all: true },
  });
  const sizeOf = new Map(counts.map((c) => [c.environmentVersionId, c._count._all]));
  let group: EnvRow[] = [];
  let groupSize = 0;
  for (const env of envs) {
    const size = sizeOf.get(env.versionId) ?? 0;
    if (group.length > 0 && (size > batch || groupSize + size > batch)) {
      yield* streamEnvironmentGroup(db, datasetVersionId, group, withTrajectories);
      group = [];
      groupSize = 0;
    }
    if (size > batch) yield* streamLargeEnvironment(db, datasetVersionId, env, withTrajectories, batch);
    else {
      group.push(env);
      groupSize += size;
    }
  }
  if (group.length > 0) yield* streamEnvironmentGroup(db, datasetVersionId, group, withTrajectories);
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
