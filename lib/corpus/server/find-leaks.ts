import "server-only";
/**
 * Scenarios whose task text leaks a gold argument. SQL keeps only scenarios where some string or
 * number leaf of the gold arguments occurs in the task at all (case folded, line breaks as spaces), a
 * necessary condition; the pure rule (lib/corpus/leakage.ts) then decides on those few.
 */
import type { Db } from "@/lib/db";
import { type CorpusScope, LEAK_PAGE_SIZE, type LeakRow, type LeaksView } from "../corpus.schema";
import { GoldCallsSchema } from "@/lib/scenarios/scenario.schema";
import { findLeaks } from "../leakage";
import { runMapQuery } from "./run-map-query";
import { scenarioScopeSql } from "./scope-sql";

export async function findLeakRows(
  db: Db,
  scope: CorpusScope,
): Promise<{ rows: LeakRow[]; scanned: number }> {
  // MATERIALIZED: the scope is read once; inlined, the planner misjudges the EXISTS and loops.
  const [candidates, counted] = await Promise.all([
    runMapQuery(
      db,
      db.$queryRaw<{ sid: string; external_id: string; slug: string; task: string; gold: unknown }[]>`
      WITH ss AS MATERIALIZED (${scenarioScopeSql(scope)})
      SELECT ss.sid, ss.external_id, ss.slug, ss.task, ss.gold
      FROM ss CROSS JOIN LATERAL (SELECT translate(lower(ss.task), E'\t\n\r', '   ') AS text) n
      WHERE jsonb_typeof(ss.gold) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_path_query(ss.gold, 'strict $[*].arguments.**') AS leaf
        WHERE length(leaf #>> '{}') >= 4 AND jsonb_typeof(leaf) IN ('string', 'number')
          AND strpos(n.text, btrim(translate(lower(leaf #>> '{}'), E'\t\n\r', '   '))) > 0)`,
    ),
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (${scenarioScopeSql(scope)}) ss`,
  ]);
  const rows = candidates
    .map((c) => ({
      scenarioId: c.sid,
      externalId: c.external_id,
      environmentSlug: c.slug,
      task: c.task,
      // Stored JSON is parsed, never cast: a malformed gold path has nothing to leak.
      leaks: findLeaks(c.task, GoldCallsSchema.safeParse(c.gold).data ?? []),
    }))
    .filter((r) => r.leaks.length > 0)
    .sort(
      (a, b) =>
        a.environmentSlug.localeCompare(b.environmentSlug) || a.externalId.localeCompare(b.externalId),
    );
  return { rows, scanned: counted[0]?.n ?? 0 };
}

export async function findLeaksPage(db: Db, scope: CorpusScope, page: number): Promise<LeaksView> {
  const { rows, scanned } = await findLeakRows(db, scope);
  const pageCount = Math.max(1, Math.ceil(rows.length / LEAK_PAGE_SIZE));
  const current = Math.min(page, pageCount);
  return {
    rows: rows.slice((current - 1) * LEAK_PAGE_SIZE, current * LEAK_PAGE_SIZE),
    total: rows.length,
    scanned,
    page: current,
    pageCount,
  };
}
