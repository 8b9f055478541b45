import "server-only";
/**
 * Tool coverage in scope, aggregated in SQL: each environment version's tools (names from its stored
 * signature, so no tool JSON is parsed) against the tool names its proven scenarios' gold calls use.
 */
import type { Db } from "@/lib/db";
import { COVERAGE_BUCKETS, coverageBucket } from "../coverage";
import { COVERAGE_LIST_SIZE, type CorpusScope, type CoverageView } from "../corpus.schema";
import { runMapQuery } from "./run-map-query";
import { scenarioScopeSql, versionScopeSql } from "./scope-sql";

type Row = { covered: number; tools: number; envs: number };

export async function findCoverage(db: Db, scope: CorpusScope): Promise<CoverageView> {
  // One statement: the per-environment aggregate is computed once (MATERIALIZED) and read twice,
  // grouped for the totals and the chart, and ranked for the list of least-covered environments.
  const rows = await runMapQuery(
    db,
    db.$queryRaw<
      {
        worst: boolean;
        eid: string;
        slug: string;
        tools: number;
        covered: number;
        untested: string[] | null;
        envs: number;
      }[]
    >`
    WITH sc AS (${versionScopeSql(scope)}),
    t AS (
      SELECT sc.eid, sc.vid, split_part(x, '(', 1) AS name
      FROM sc JOIN "EnvironmentSignature" s ON s."environmentVersionId" = sc.vid, unnest(s."toolSignatures") AS x),
    used AS (
      SELECT DISTINCT ss.vid, lower(c->>'name') AS name
      FROM (${scenarioScopeSql(scope)}) ss,
        jsonb_array_elements(CASE WHEN jsonb_typeof(ss.gold) = 'array' THEN ss.gold ELSE '[]'::jsonb END) AS c
      WHERE ss.proven),
    per AS MATERIALIZED (
      SELECT t.eid, count(*)::int AS tools, count(u.name)::int AS covered,
        array_agg(t.name ORDER BY t.name) FILTER (WHERE u.name IS NULL) AS untested
      FROM t LEFT JOIN used u ON u.vid = t.vid AND u.name = t.name GROUP BY t.eid)
    SELECT false AS worst, NULL AS eid, NULL AS slug, tools, covered, NULL::text[] AS untested, count(*)::int AS envs
    FROM per GROUP BY tools, covered
    UNION ALL
    (SELECT true, per.eid, e."slug", per.tools, per.covered, per.untested, 1
     FROM per JOIN "Environment" e ON e."id" = per.eid
     WHERE per.covered < per.tools
     ORDER BY per.tools - per.covered DESC, e."slug" LIMIT ${COVERAGE_LIST_SIZE})`,
  );
  const groups: Row[] = rows.filter((r) => !r.worst);
  const worst = rows.filter((r) => r.worst);
  const counts = new Map<string, number>(COVERAGE_BUCKETS.map((b) => [b.label, 0]));
  for (const g of groups) {
    const label = coverageBucket(g.covered, g.tools);
    counts.set(label, (counts.get(label) ?? 0) + g.envs);
  }
  return {
    tools: groups.reduce((s, g) => s + g.tools * g.envs, 0),
    covered: groups.reduce((s, g) => s + g.covered * g.envs, 0),
    environments: groups.reduce((s, g) => s + g.envs, 0),
    byShare: [...counts].map(([label, count]) => ({ label, count })),
    leastCovered: worst.map((w) => ({
      environmentId: w.eid,
      slug: w.slug,
      tools: w.tools,
      untested: w.untested ?? [],
    })),
  };
}
