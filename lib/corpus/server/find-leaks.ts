import "server-only";
/**
 * Scenarios whose task text leaks a gold argument. SQL keeps only scenarios where some string or
 * number leaf of the gold arguments occurs in the task at all (case and whitespace folded), a
 * necessary condition; the pure rule (lib/corpus/leakage.ts) then decides on those few.
 */
import type { Db } from "@/lib/db";
import { type CorpusScope, LEAK_PAGE_SIZE, type LeakRow, type LeaksView } from "../corpus.schema";
import { GoldCallsSchema } from "@/lib/scenarios/scenario.schema";
import { findLeaks } from "../leakage";
import { scenarioScopeSql } from "./scope-sql";

export async function findLeakRows(
  db: Db,
  scope: CorpusScope,
): Promise<{ rows: LeakRow[]; scanned: number }> {
  const [candidates, counted] = await Promise.all([
    db.$queryRaw<{ sid: string; external_id: string; slug: string; task: string; gold: unknown }[]>`
      SELECT ss.sid, ss.external_id, ss.slug, ss.task, ss.gold FROM (${scenarioScopeSql(scope)}) ss
      WHERE jsonb_typeof(ss.gold) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_path_query(ss.gold, 'lax $[*].arguments.**') AS leaf
        WHERE jsonb_typeof(leaf) IN ('string', 'number') AND length(leaf #>> '{}') >= 4
          AND strpos(regexp_replace(lower(ss.task), '\\s+', ' ', 'g'),
                     btrim(regexp_replace(lower(leaf #>> '{}'), '\\s+', ' ', 'g'))) > 0)`,
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
