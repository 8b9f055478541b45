import "server-only";
/** Dashboard chart data, aggregated in SQL so it stays cheap with many thousands of rows. */
import type { Db } from "@/lib/db";
import { type DashboardCharts, type Tally, bucketCountTally, bucketFractionTally, fillDays } from "../charts";

type TallyRow = Tally[number];

export type { DashboardCharts } from "../charts";

const COUNT_EDGES = [0, 1, 5, 10, 15, 20, 30];
export const SPEND_DAYS = 30;

export async function getDashboardCharts(
  db: Db,
  projectId: string,
  now = new Date(),
): Promise<DashboardCharts> {
  const since = new Date(now.getTime() - SPEND_DAYS * 24 * 3600 * 1000);
  // Every distribution comes back as (value, rows) from GROUP BY: a corpus of a million scenarios
  // is a few dozen rows here, not a million.
  const [tools, scenarioCounts, checks, proofs, rewards, spend] = await Promise.all([
    db.$queryRaw<TallyRow[]>`
      SELECT "toolCount" AS value, count(*)::int AS count FROM "Environment" WHERE "projectId" = ${projectId} GROUP BY 1`,
    db.$queryRaw<TallyRow[]>`
      SELECT n AS value, count(*)::int AS count FROM (
        SELECT count(s.id)::int AS n FROM "Environment" e LEFT JOIN "Scenario" s ON s."environmentId" = e.id
        WHERE e."projectId" = ${projectId} GROUP BY e.id) per_environment GROUP BY 1`,
    // The latest check of each version: re-checks supersede earlier ones.
    db.$queryRaw<{ passRate: number; passed: boolean; count: number }[]>`
      SELECT "passRate", passed, count(*)::int AS count FROM (
        SELECT DISTINCT ON (q."environmentVersionId") q."passRate", q.passed FROM "QualityCheck" q
        JOIN "EnvironmentVersion" v ON v.id = q."environmentVersionId" JOIN "Environment" e ON e.id = v."environmentId"
        WHERE e."projectId" = ${projectId} ORDER BY q."environmentVersionId", q."createdAt" DESC) latest GROUP BY 1, 2`,
    db.scenario.groupBy({
      by: ["proofStatus"],
      where: { environment: { projectId } },
      _count: { _all: true },
      orderBy: { proofStatus: "asc" },
    }),
    db.$queryRaw<TallyRow[]>`
      SELECT t.reward AS value, count(*)::int AS count FROM "Trajectory" t JOIN "Scenario" s ON s.id = t."scenarioId"
      JOIN "Environment" e ON e.id = s."environmentId" WHERE e."projectId" = ${projectId} GROUP BY 1`,
    db.$queryRaw<{ day: string; usd: string }[]>`
      SELECT to_char(date_trunc('day', c."createdAt"), 'YYYY-MM-DD') AS day, sum(c."costUsd")::text AS usd
      FROM "LlmCall" c JOIN "PipelineRun" r ON r.id = c."runId"
      WHERE r."projectId" = ${projectId} AND c."createdAt" >= ${since} GROUP BY 1`,
  ]);
  const spendRows = spend.map((r) => ({ day: r.day, value: Number(r.usd) }));
  return {
    toolsPerEnvironment: bucketCountTally(tools, COUNT_EDGES),
    scenariosPerEnvironment: bucketCountTally(scenarioCounts, COUNT_EDGES),
    qualityPassRates: bucketFractionTally(checks.map((c) => ({ value: c.passRate, count: c.count }))),
    quality: {
      passed: checks.reduce((n, c) => n + (c.passed ? c.count : 0), 0),
      failed: checks.reduce((n, c) => n + (c.passed ? 0 : c.count), 0),
    },
    proofOutcomes: proofs.map((p) => ({ status: p.proofStatus, count: p._count._all })),
    rewards: bucketFractionTally(rewards),
    spendByDay: fillDays(spendRows, SPEND_DAYS, now),
    totalSpendUsd: spendRows.reduce((a, r) => a + r.value, 0),
  };
}
