import "server-only";
/**
 * The dataset page's row browser: one page of a version's items, searched and counted in Postgres
 * (never the whole version in the browser), and one item as the EnvScaler export writes it.
 * Order is the export's: environment slug, then task id.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import { ScenarioDifficultySchema } from "@/lib/difficulty/estimators";
import { exportEnvIds } from "@/lib/export/env-id";
import { toScenarioItem } from "@/lib/export/formats/envscaler";
import { toExportScenarios } from "@/lib/export/server/to-export-scenario";
import { idList } from "@/lib/review/acceptance";
import { pageOfVersionRows } from "./page-of-version-rows";
import {
  taskExcerpt,
  type VersionRow,
  type VersionRowDetail,
  type VersionRowsPage,
  type VersionRowsQuery,
} from "../version-rows.schema";
import { containsText } from "@/lib/core/contains-text";

const ROW_SELECT = {
  scenarioId: true,
  split: true,
  overridden: true,
  validatorVersionIds: true,
  environmentVersionId: true,
  difficulty: true,
  nearMissStrength: true,
  environmentVersion: { select: { version: true } },
  scenario: {
    select: {
      externalId: true,
      task: true,
      proofStatus: true,
      environment: { select: { id: true, slug: true, name: true } },
    },
  },
} satisfies Prisma.DatasetItemSelect;

type RowRecord = Prisma.DatasetItemGetPayload<{ select: typeof ROW_SELECT }>;

async function requireVersion(db: Db, datasetVersionId: string) {
  const version = await db.datasetVersion.findUnique({
    where: { id: datasetVersionId },
    select: { id: true },
  });
  if (!version) throw new AppError("NOT_FOUND", `Dataset version ${datasetVersionId} not found.`);
}

/**
 * env_id of the pinned environment versions of these environments (the rows shown): an older pinned
 * version of an environment is `slug@vN`, so each environment's pinned versions are read, and no
 * others — a version of 100,000 items pins over ten thousand.
 */
async function envIdsOf(
  db: Db,
  datasetVersionId: string,
  environmentIds: string[],
): Promise<Map<string, string>> {
  const versions = await db.environmentVersion.findMany({
    where: {
      environmentId: { in: [...new Set(environmentIds)] },
      datasetItems: { some: { datasetVersionId } },
    },
    select: { id: true, version: true, environment: { select: { slug: true } } },
  });
  return exportEnvIds(versions.map((v) => ({ id: v.id, slug: v.environment.slug, version: v.version })));
}

async function validatorNumbers(db: Db, rows: RowRecord[]): Promise<Map<string, number>> {
  const ids = rows.flatMap((r) => idList(r.validatorVersionIds) ?? []);
  if (ids.length === 0) return new Map();
  const versions = await db.validatorVersion.findMany({
    where: { id: { in: ids } },
    select: { id: true, version: true },
  });
  return new Map(versions.map((v) => [v.id, v.version]));
}

const StrengthSnapshotSchema = z.object({
  strength: z.object({ rejected: z.number(), total: z.number() }).nullable(),
});

function toRow(r: RowRecord, envIds: Map<string, string>, numbers: Map<string, number>): VersionRow {
  const difficulty = ScenarioDifficultySchema.safeParse(r.difficulty);
  const strength = StrengthSnapshotSchema.safeParse(r.nearMissStrength);
  return {
    scenarioId: r.scenarioId,
    envId: envIds.get(r.environmentVersionId) ?? r.scenario.environment.slug,
    environmentName: r.scenario.environment.name,
    taskId: r.scenario.externalId,
    taskExcerpt: taskExcerpt(r.scenario.task),
    split: r.split,
    environmentVersion: r.environmentVersion.version,
    validatorVersions: (idList(r.validatorVersionIds) ?? []).map((id) => numbers.get(id) ?? 0),
    overridden: r.overridden,
    proofStatus: r.scenario.proofStatus,
    difficulty: difficulty.success
      ? { n: difficulty.data.n, successRate: difficulty.data.success_rate, pSignal: difficulty.data.p_signal }
      : null,
    nearMiss:
      strength.success && strength.data.strength
        ? { rejected: strength.data.strength.rejected, total: strength.data.strength.total }
        : null,
  };
}

/** The search: task text, task id, environment slug or name contain `q` (case-insensitive). */
function rowsWhere(datasetVersionId: string, query: VersionRowsQuery): Prisma.DatasetItemWhereInput {
  const contains = query.q ? containsText(query.q) : undefined;
  return {
    datasetVersionId,
    ...(query.split ? { split: query.split } : {}),
    ...(contains
      ? {
          scenario: {
            OR: [
              { task: contains },
              { externalId: contains },
              { environment: { slug: contains } },
              { environment: { name: contains } },
            ],
          },
        }
      : {}),
  };
}

/** A page of the rows matching a search: every item's task is matched, so ordering them all is no extra. */
async function searchedRows(db: Db, datasetVersionId: string, query: VersionRowsQuery) {
  const where = rowsWhere(datasetVersionId, query);
  const [records, total] = await Promise.all([
    db.datasetItem.findMany({
      where,
      orderBy: [
        { scenario: { environment: { slug: "asc" } } },
        { environmentVersion: { version: "desc" } },
        { scenario: { externalId: "asc" } },
      ],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: ROW_SELECT,
    }),
    db.datasetItem.count({ where }),
  ]);
  return { records, total };
}

/** One page of a version's rows; a page past the end is empty (with the total to go back by). */
export async function findVersionRows(
  db: Db,
  datasetVersionId: string,
  query: VersionRowsQuery,
): Promise<VersionRowsPage> {
  await requireVersion(db, datasetVersionId);
  const { records, total } = query.q
    ? await searchedRows(db, datasetVersionId, query)
    : await pageOfVersionRows(db, datasetVersionId, query, (where, skip, take) =>
        db.datasetItem.findMany({
          where,
          orderBy: { scenario: { externalId: "asc" } },
          skip,
          take,
          select: ROW_SELECT,
        }),
      );
  const [envIds, numbers] = await Promise.all([
    envIdsOf(
      db,
      datasetVersionId,
      records.map((r) => r.scenario.environment.id),
    ),
    validatorNumbers(db, records),
  ]);
  return {
    items: records.map((r) => toRow(r, envIds, numbers)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One item and the scenario record the EnvScaler export writes for it, from the same pinned rows. */
export async function getVersionRow(
  db: Db,
  datasetVersionId: string,
  scenarioId: string,
): Promise<VersionRowDetail> {
  await requireVersion(db, datasetVersionId);
  const item = await db.datasetItem.findUnique({
    where: { datasetVersionId_scenarioId: { datasetVersionId, scenarioId } },
    select: {
      ...ROW_SELECT,
      environmentVersion: { select: { version: true, className: true } },
      scenario: {
        select: {
          ...ROW_SELECT.scenario.select,
          id: true,
          environmentId: true,
          initialState: true,
          goldCalls: true,
        },
      },
    },
  });
  if (!item) throw new AppError("NOT_FOUND", `Scenario ${scenarioId} is not in this dataset version.`);
  const [envIds, numbers] = await Promise.all([
    envIdsOf(db, datasetVersionId, [item.scenario.environmentId]),
    validatorNumbers(db, [item]),
  ]);
  const row = toRow(item, envIds, numbers);
  const [scenario] = await toExportScenarios(db, row.envId, [item], false);
  if (!scenario) throw new AppError("INTERNAL", `Scenario ${scenarioId} could not be read for export.`);
  return {
    row,
    environmentId: item.scenario.environmentId,
    exported: toScenarioItem(scenario, item.environmentVersion.className),
  };
}
