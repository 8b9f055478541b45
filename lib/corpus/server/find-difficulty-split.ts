import "server-only";
/**
 * Scenarios in scope by difficulty: for each, the rollouts graded on exactly its pins (the same
 * rule as lib/difficulty: environment version and validator versions in checklist order) — for the
 * corpus its environment's current version and its checks' current versions, for a dataset version
 * the item's pins. The sums come from "RolloutTally" (kept by triggers as rollouts are written), and
 * Postgres returns one row per distinct (n, successes), never the rollouts.
 */
import { type Db, Prisma } from "@/lib/db";
import type { CorpusScope } from "../corpus.schema";
import { type CountRow, bucketDifficulty } from "../splits";

function pinsSql(scope: CorpusScope): Prisma.Sql {
  if (scope.kind === "corpus")
    return Prisma.sql`
      SELECT s."id" AS sid, e."currentVersionId" AS vid,
        COALESCE((SELECT jsonb_agg(v."currentVersionId" ORDER BY v."position") FROM "Validator" v
                  WHERE v."scenarioId" = s."id" AND v."currentVersionId" IS NOT NULL), '[]'::jsonb) AS vals
      FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId"
      WHERE e."projectId" = ${scope.projectId} AND e."status" <> 'REJECTED' AND s."status" <> 'REJECTED'
        AND e."currentVersionId" IS NOT NULL`;
  return Prisma.sql`
    SELECT i."scenarioId" AS sid, i."environmentVersionId" AS vid, i."validatorVersionIds" AS vals
    FROM "DatasetItem" i WHERE i."datasetVersionId" = ${scope.datasetVersionId}`;
}

export async function findDifficultySplit(db: Db, scope: CorpusScope): Promise<CountRow[]> {
  const rows = await db.$queryRaw<{ n: number; successes: number; count: number }[]>`
    SELECT r.n, r.successes, count(*)::int AS count FROM (
      SELECT p.sid, COALESCE(sum(t."n"), 0)::int AS n, COALESCE(sum(t."successes"), 0)::int AS successes
      FROM (${pinsSql(scope)}) p
      LEFT JOIN "RolloutTally" t
        ON t."scenarioId" = p.sid AND t."environmentVersionId" = p.vid
       AND t."validatorVersionKey" = p.vals::text AND t."n" > 0
      GROUP BY p.sid) r
    GROUP BY r.n, r.successes`;
  return bucketDifficulty(rows);
}
