import "server-only";
/** Scenarios in scope by domain and by their environment's tool count, grouped in SQL. */
import type { Db } from "@/lib/db";
import type { CorpusScope, SplitsView } from "../corpus.schema";
import { bucketToolCounts, topWithOther } from "../splits";
import { findDifficultySplit } from "./find-difficulty-split";
import { scenarioScopeSql } from "./scope-sql";

/** More domains than this fold into "other": a bar chart past a dozen labels stops being read. */
const DOMAIN_BARS = 12;

export async function findSplits(db: Db, scope: CorpusScope): Promise<SplitsView> {
  const [domains, toolCounts, byDifficulty] = await Promise.all([
    db.$queryRaw<{ label: string; count: number }[]>`
      SELECT ss.domain AS label, count(*)::int AS count FROM (${scenarioScopeSql(scope)}) ss GROUP BY ss.domain`,
    db.$queryRaw<{ toolCount: number; count: number }[]>`
      SELECT ss.tool_count::int AS "toolCount", count(*)::int AS count
      FROM (${scenarioScopeSql(scope)}) ss GROUP BY ss.tool_count`,
    findDifficultySplit(db, scope),
  ]);
  return {
    scenarios: domains.reduce((s, d) => s + d.count, 0),
    byDomain: topWithOther(domains, DOMAIN_BARS),
    byToolCount: bucketToolCounts(toolCounts),
    byDifficulty,
  };
}
