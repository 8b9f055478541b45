import "server-only";
/** Dashboard chart data, aggregated in SQL so it stays cheap with many thousands of rows. */
import type { Db } from "@/lib/db";
import { type DashboardCharts, bucketCounts, bucketFractions, fillDays } from "../charts";

export type { DashboardCharts } from "../charts";

const COUNT_EDGES = [0, 1, 5, 10, 15, 20, 30];
export const SPEND_DAYS = 30;

export async function getDashboardCharts(
  db: Db,
  projectId: string,
  now = new Date(),
): Promise<DashboardCharts> {
  const since = new Date(now.getTime() - SPEND_DAYS * 24 * 3600 * 1000);
  const [envs, scenarioCounts, checks, proofs, rewards, spend] = await Promise.all([
    db.environment.findMany({ where: { projectId }, select: { toolCount: true } }),
    db.$queryRaw<
      { n: bigint }[]
    >`SELECT count(s.id) AS n FROM "Environment" e LEFT JOIN "Scenario" s ON s."environmentId" = e.id WHERE e."projectId" = ${projectId} GROUP BY e.id`,
    // The latest check of each version: re-checks supersede earlier ones.
    db.$queryRaw<{ passRate: number; passed: boolean }[]>`
      SELECT DISTINCT ON (q."environmentVersionId") q."passRate", q.passed FROM "QualityCheck" q
      JOIN "EnvironmentVersion" v ON v.id = q."environmentVersionId" JOIN "Environment" e ON e.id = v."environmentId"
      WHERE e."projectId" = ${projectId} ORDER BY q."environmentVersionId", q."createdAt" DESC`,
    db.scenario.groupBy({
      by: ["proofStatus"],
      where: { environment: { projectId } },
      _count: { _all: true },
      orderBy: { proofStatus: "asc" },
    }),
    db.$queryRaw<
      { reward: number }[]
    >`SELECT t.reward FROM "Trajectory" t JOIN "Scenario" s ON s.id = t."scenarioId" JOIN "Environment" e ON e.id = s."environmentId" WHERE e."projectId" = ${projectId}`,
    db.$queryRaw<{ day: string; usd: string }[]>`
      SELECT to_char(date_trunc('day', c."createdAt"), 'YYYY-MM-DD') AS day, sum(c."costUsd")::text AS usd
      FROM "LlmCall" c JOIN "PipelineRun" r ON r.id = c."runId"
      WHERE r."projectId" = ${projectId} AND c."createdAt" >= ${since} GROUP BY 1`,
  ]);
  const spendRows = spend.map((r) => ({ day: r.day, value: Number(r.usd) }));
  return {
    toolsPerEnvironment: bucketCounts(
      envs.map((e) => e.toolCount),
      COUNT_EDGES,
    ),
    scenariosPerEnvironment: bucketCounts(
      scenarioCounts.map((r) => Number(r.n)),
      COUNT_EDGES,
    ),
    qualityPassRates: bucketFractions(checks.map((c) => c.passRate)),
    quality: {
      passed: checks.filter((c) => c.passed).length,
      failed: checks.filter((c) => !c.passed).length,
    },
    proofOutcomes: proofs.map((p) => ({ status: p.proofStatus, count: p._count._all })),
    rewards: bucketFractions(rewards.map((r) => r.reward)),
    spendByDay: fillDays(spendRows, SPEND_DAYS, now),
    totalSpendUsd: spendRows.reduce((a, r) => a + r.value, 0),
  };
}
