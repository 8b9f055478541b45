import "server-only";
/**
 * Per-scenario difficulty, summed in SQL. A rollout counts for a scenario when it was graded under
 * exactly the pins asked about: the same environment version and the same validator versions in
 * checklist order — whichever run or dataset produced it. Rollouts under other pins are ignored.
 * Postgres keeps one row of sums per pins and model as rollouts are written (the "RolloutTally"
 * triggers), so a read never touches the rollouts; the estimators (../estimators.ts) turn those
 * sums into pass@k, pass^k and P(signal).
 */
import { type Db, Prisma } from "@/lib/db";
import {
  type DifficultyOptions,
  type RolloutCounts,
  type ScenarioDifficulty,
  scenarioDifficulty,
} from "../estimators";

type Reader = Db | Prisma.TransactionClient;

/** The versions a scenario is asked about (a dataset item's pins, or a plan's). */
export type DifficultyPin = {
  scenarioId: string;
  environmentVersionId: string;
  validatorVersionIds: string[];
};

/** Scenario id → model → sums over the counted rollouts (scenarios without any are absent). */
export type CountsByScenario = Map<string, Record<string, RolloutCounts>>;

/** One (pins, model) sum as it travels: [scenarioId, model, n, successes, rewardSum, rewardSquareSum]. */
type CountRow = [string, string, number, number, number, number];

/**
 * The aggregate every reader shares. `pins` is a relation ("scenarioId", "environmentVersionId",
 * "validatorVersionIds" jsonb). It reads "RolloutTally", the per-(pins, model) sums that triggers on
 * "Trajectory" keep (success means reward exactly 1), so its cost follows the number of pins, not
 * the number of rollouts. The sums come back as one JSON text, as the preview's corpus-wide reads
 * do, rather than as 200,000 rows decoded one by one for a 100,000-scenario dataset.
 */
async function countsFrom(db: Reader, pins: Prisma.Sql): Promise<CountsByScenario> {
  const [row] = await db.$queryRaw<{ sums: string | null }[]>`
    SELECT json_agg(json_build_array(t."scenarioId", t."model", t."n", t."successes", t."rewardSum", t."rewardSquareSum"))::text AS sums
    FROM ${pins} p
    JOIN "RolloutTally" t
      ON t."scenarioId" = p."scenarioId"
     AND t."environmentVersionId" = p."environmentVersionId"
     AND t."validatorVersionKey" = p."validatorVersionIds"::text
    WHERE t."n" > 0`;
  return countsFromJson(row?.sums ?? null);
}

/** Sums sent as one JSON array of `CountRow`s (json_agg of json_build_array), by scenario and model. */
export function countsFromJson(text: string | null): CountsByScenario {
  const out: CountsByScenario = new Map();
  for (const [scenarioId, model, n, successes, rewardSum, rewardSquareSum] of JSON.parse(
    text ?? "[]",
  ) as CountRow[]) {
    const models = out.get(scenarioId) ?? {};
    models[model] = { n, successes, rewardSum, rewardSquareSum };
    out.set(scenarioId, models);
  }
  return out;
}

/** Counts for explicit pins (a plan's items before the dataset version exists). */
export async function loadRolloutCounts(
  db: Reader,
  pins: readonly DifficultyPin[],
): Promise<CountsByScenario> {
  if (pins.length === 0) return new Map();
  const relation = Prisma.sql`(SELECT * FROM jsonb_to_recordset(${JSON.stringify(pins)}::jsonb)
    AS x("scenarioId" text, "environmentVersionId" text, "validatorVersionIds" jsonb))`;
  return countsFrom(db, relation);
}

/** Counts for every item of a dataset version, on the item's pins. */
export async function loadDatasetVersionCounts(
  db: Reader,
  datasetVersionId: string,
): Promise<CountsByScenario> {
  const relation = Prisma.sql`(SELECT "scenarioId", "environmentVersionId", "validatorVersionIds"
    FROM "DatasetItem" WHERE "datasetVersionId" = ${datasetVersionId})`;
  return countsFrom(db, relation);
}

/**
 * Counts for every scenario of a project on its current versions (the environment's current
 * version, each validator's current version in checklist order): the corpus as it stands.
 */
export async function loadCorpusCounts(db: Reader, projectId: string): Promise<CountsByScenario> {
  const relation = Prisma.sql`(
    SELECT s."id" AS "scenarioId", e."currentVersionId" AS "environmentVersionId",
           COALESCE((SELECT jsonb_agg(v."currentVersionId" ORDER BY v."position")
                     FROM "Validator" v WHERE v."scenarioId" = s."id" AND v."currentVersionId" IS NOT NULL),
                    '[]'::jsonb) AS "validatorVersionIds"
    FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId"
    WHERE e."projectId" = ${projectId} AND e."currentVersionId" IS NOT NULL)`;
  return countsFrom(db, relation);
}

/** Difficulty per scenario id, pooled and per model, for every id asked (n = 0 when none counted). */
export function difficultyOf(
  counts: CountsByScenario,
  scenarioIds: readonly string[],
  opts: DifficultyOptions,
): Map<string, ScenarioDifficulty> {
  return new Map(scenarioIds.map((id) => [id, scenarioDifficulty(counts.get(id) ?? {}, opts)]));
}

export async function loadScenarioDifficulty(
  db: Reader,
  pins: readonly DifficultyPin[],
  opts: DifficultyOptions,
): Promise<Map<string, ScenarioDifficulty>> {
  return difficultyOf(
    await loadRolloutCounts(db, pins),
    pins.map((p) => p.scenarioId),
    opts,
  );
}
