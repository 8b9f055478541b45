import "server-only";
/**
 * The corpus map of the whole corpus or of one dataset version: near-duplicate clusters, tool
 * coverage, answer leakage and the split of scenarios. Every part is aggregated in SQL over stored
 * signatures; only one page of clusters and of leaks is returned.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { CorpusMap, CorpusMapQuery, CorpusScope } from "../corpus.schema";
import { ensureSignatures } from "./ensure-signatures";
import { findCoverage } from "./find-coverage";
import { findDuplicates } from "./find-duplicates";
import { findLeaksPage } from "./find-leaks";
import { findSplits } from "./find-splits";
import { versionScopeSql } from "./scope-sql";

async function resolveScope(db: Db, projectId: string, datasetVersionId: string | undefined) {
  if (!datasetVersionId)
    return { scope: { kind: "corpus", projectId } as CorpusScope, view: { kind: "corpus" } as const };
  const version = await db.datasetVersion.findFirst({
    where: { id: datasetVersionId, dataset: { projectId } },
    include: { dataset: { select: { name: true } } },
  });
  if (!version) throw new AppError("NOT_FOUND", "Dataset version was not found.");
  return {
    scope: { kind: "dataset", datasetVersionId } as CorpusScope,
    view: {
      kind: "dataset",
      datasetVersionId,
      label: `${version.dataset.name} v${version.version}`,
    } as const,
  };
}

export async function getCorpusMap(db: Db, projectId: string, query: CorpusMapQuery): Promise<CorpusMap> {
  const { scope, view } = await resolveScope(db, projectId, query.dataset);
  await ensureSignatures(db, scope);
  const [environments, duplicates, coverage, leaks, splits] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (${versionScopeSql(scope)}) sc`,
    findDuplicates(db, scope, query.clusters),
    findCoverage(db, scope),
    findLeaksPage(db, scope, query.leaks),
    findSplits(db, scope),
  ]);
  return { scope: view, environments: environments[0]?.n ?? 0, duplicates, coverage, leaks, splits };
}
