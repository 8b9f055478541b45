import "server-only";
/**
 * Near-duplicate clusters in scope. Candidate pairs come from a join on shared LSH band keys
 * (never all pairs); SQL scores each candidate (MinHash code similarity, exact tool-set Jaccard) and
 * keeps those past either threshold; the pure rule and union-find (lib/corpus/duplicates.ts) make
 * the clusters; only the requested page's members are read in detail.
 */
import type { Db } from "@/lib/db";
import {
  CLUSTER_PAGE_SIZE,
  type ClusterMember,
  type CorpusScope,
  type DuplicatesView,
} from "../corpus.schema";
import {
  clusterPairs,
  CODE_DUPLICATE,
  MIN_TOOLS_FOR_TOOL_MATCH,
  pairKey,
  type SimilarPair,
  TOOL_DUPLICATE,
} from "../duplicates";
import { CODE_HASHES, MIN_SHARED_BANDS, TOOL_BAND_KEY_MIN } from "../signature";
import { runMapQuery } from "./run-map-query";
import { versionScopeSql } from "./scope-sql";

type PairRow = { a: string; b: string; code: number; inter: number; na: number; nb: number };

export async function findSimilarPairs(db: Db, scope: CorpusScope): Promise<SimilarPair[]> {
  // Versions are numbered (sc.n) so the self-join compares integers, not ids.
  const rows = await runMapQuery(
    db,
    db.$queryRaw<PairRow[]>`
    WITH sc AS (SELECT scope.vid, row_number() OVER () AS n FROM (${versionScopeSql(scope)}) scope),
    b AS (
      SELECT sc.n, unnest(s."bands") AS key
      FROM "EnvironmentSignature" s JOIN sc ON sc.vid = s."environmentVersionId"),
    cand AS (
      SELECT x.n AS a, y.n AS b FROM b x JOIN b y ON x.key = y.key AND x.n < y.n
      GROUP BY 1, 2
      HAVING count(*) FILTER (WHERE x.key < ${TOOL_BAND_KEY_MIN}::bigint) >= ${MIN_SHARED_BANDS}
        OR count(*) FILTER (WHERE x.key >= ${TOOL_BAND_KEY_MIN}::bigint) >= ${MIN_SHARED_BANDS}),
    scored AS (
      SELECT va.vid AS a, vb.vid AS b,
        (SELECT count(*) FROM unnest(sa."codeMinhash", sb."codeMinhash") AS t(x, y) WHERE x = y)::float8
          / ${CODE_HASHES} AS code,
        cardinality(ARRAY(SELECT unnest(sa."toolSignatures") INTERSECT SELECT unnest(sb."toolSignatures")))::int AS inter,
        cardinality(sa."toolSignatures")::int AS na, cardinality(sb."toolSignatures")::int AS nb
      FROM cand c
      JOIN sc va ON va.n = c.a JOIN sc vb ON vb.n = c.b
      JOIN "EnvironmentSignature" sa ON sa."environmentVersionId" = va.vid
      JOIN "EnvironmentSignature" sb ON sb."environmentVersionId" = vb.vid)
    SELECT * FROM scored
    WHERE code >= ${CODE_DUPLICATE}
      OR (LEAST(na, nb) >= ${MIN_TOOLS_FOR_TOOL_MATCH} AND inter::float8 / NULLIF(na + nb - inter, 0) >= ${TOOL_DUPLICATE})`,
  );
  // Pairs are stored and looked up smaller id first (byte order), as dismissals are.
  return rows.map((r) => ({
    a: r.a < r.b ? r.a : r.b,
    b: r.a < r.b ? r.b : r.a,
    codeSimilarity: r.code,
    toolSimilarity: r.na + r.nb - r.inter > 0 ? r.inter / (r.na + r.nb - r.inter) : 0,
    toolsA: r.a < r.b ? r.na : r.nb,
    toolsB: r.a < r.b ? r.nb : r.na,
  }));
}

async function findDismissed(db: Db, pairs: readonly SimilarPair[]): Promise<Set<string>> {
  if (!pairs.length) return new Set();
  const rows = await db.$queryRaw<{ a: string; b: string }[]>`
    SELECT d."versionIdA" AS a, d."versionIdB" AS b FROM "DuplicateDismissal" d
    JOIN unnest(${pairs.map((p) => p.a)}::text[], ${pairs.map((p) => p.b)}::text[]) AS p(a, b)
      ON d."versionIdA" = p.a AND d."versionIdB" = p.b`;
  return new Set(rows.map((r) => pairKey(r.a, r.b)));
}

async function findMembers(db: Db, versionIds: string[]): Promise<Map<string, ClusterMember>> {
  if (!versionIds.length) return new Map();
  const rows = await db.$queryRaw<ClusterMember[]>`
    SELECT e."id" AS "environmentId", v."id" AS "versionId", e."slug", e."name", e."domain",
      e."status"::text AS status, v."version", COALESCE(cardinality(sig."toolSignatures"), 0)::int AS "toolCount",
      (SELECT count(*) FROM "Scenario" s WHERE s."environmentId" = e."id" AND s."status" <> 'REJECTED')::int AS "scenarioCount"
    FROM "EnvironmentVersion" v JOIN "Environment" e ON e."id" = v."environmentId"
    LEFT JOIN "EnvironmentSignature" sig ON sig."environmentVersionId" = v."id"
    WHERE v."id" = ANY(${versionIds}::text[])`;
  return new Map(rows.map((r) => [r.versionId, r]));
}

export async function findDuplicates(db: Db, scope: CorpusScope, page: number): Promise<DuplicatesView> {
  const pairs = await findSimilarPairs(db, scope);
  const clusters = clusterPairs(pairs, await findDismissed(db, pairs));
  const pageCount = Math.max(1, Math.ceil(clusters.length / CLUSTER_PAGE_SIZE));
  const current = Math.min(page, pageCount);
  const shown = clusters.slice((current - 1) * CLUSTER_PAGE_SIZE, current * CLUSTER_PAGE_SIZE);
  const members = await findMembers(
    db,
    shown.flatMap((c) => c.members),
  );
  return {
    clusters: shown.map((c) => ({
      ...c,
      members: c.members.flatMap((id) => members.get(id) ?? []),
    })),
    clusterCount: clusters.length,
    redundant: clusters.reduce((s, c) => s + c.members.length - 1, 0),
    page: current,
    pageCount,
  };
}
