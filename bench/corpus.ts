/**
 * `npm run bench -- corpus`: per-scenario difficulty at corpus scale. Seeds (bulk SQL) 100,000
 * accepted, proven scenarios in 10,000 environments with 8 rollouts each (800,000 trajectories,
 * plus 100,000 under other validator versions that must not count), then times:
 *   - the dataset preview with difficulty filters (zero-signal exclusion, a train band, sorted by
 *     success rate, and three more requests a curator makes): server time of what the page's
 *     action runs, against the baseline of computing the whole plan and paging it;
 *   - difficulty alone for every pin, read from the per-pins sums the triggers keep ("RolloutTally"),
 *     against the baseline of summing the rollouts themselves in SQL on every read.
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 * CORPUS_SCENARIOS scales it down for a quick look.
 */
import { createDb } from "../lib/db";
import { previewDatasetVersion } from "../lib/datasets/server/create-dataset-version";
import {
  type CountsByScenario,
  countsFromJson,
  difficultyOf,
  loadRolloutCounts,
} from "../lib/difficulty/server/scenario-difficulty";
import { PreviewPageSchema, previewPage } from "../lib/datasets/preview-page";
import { previewDatasetPage } from "../lib/datasets/server/preview-dataset-page";
import { isDeepStrictEqual } from "node:util";
import { percentile, round, writeResult } from "./bench-util";
import { scratchDatabase } from "./pipeline/setup";

const SCENARIOS = Number(process.env.CORPUS_SCENARIOS ?? 100_000);
const PER_ENV = 10;
const ROLLOUTS = 8;
const RUNS = Number(process.env.CORPUS_RUNS ?? 7);

type Db = ReturnType<typeof createDb>;

async function seed(db: Db) {
  const envs = Math.ceil(SCENARIOS / PER_ENV);
  await db.$executeRawUnsafe(`INSERT INTO "Project" (id, slug, name) VALUES ('p', 'corpus', 'corpus')`);
  await db.$executeRawUnsafe(`
    INSERT INTO "Environment" (id, "projectId", slug, name, status, origin, "updatedAt")
    SELECT 'e' || i, 'p', 'env-' || lpad(i::text, 6, '0'), 'Env ' || i, 'ACCEPTED', 'MANUAL', now()
    FROM generate_series(1, ${envs}) i`);
  await db.$executeRawUnsafe(`
    INSERT INTO "EnvironmentVersion" (id, "environmentId", version, "className", source, "sourceHash", "producedBy")
    SELECT 'ev' || i, 'e' || i, 1, 'Env', 'class Env: pass', 'h' || i, 'bench' FROM generate_series(1, ${envs}) i`);
  await db.$executeRawUnsafe(
    `UPDATE "Environment" SET "currentVersionId" = 'ev' || substr(id, 2), "acceptedVersionId" = 'ev' || substr(id, 2)`,
  );
  await db.$executeRawUnsafe(`
    INSERT INTO "Scenario" (id, "environmentId", "environmentVersionId", "externalId", "initialState", task, "taskHash",
                            status, "proofStatus", "acceptedValidatorVersionIds", origin, "updatedAt")
    SELECT 's' || i, 'e' || ((i - 1) / ${PER_ENV} + 1), 'ev' || ((i - 1) / ${PER_ENV} + 1), 'scn-' || lpad(i::text, 7, '0'),
           '{}', 'Task ' || i, 'th' || i, 'ACCEPTED', 'VERIFIED', jsonb_build_array('vv' || i), 'MANUAL', now()
    FROM generate_series(1, ${SCENARIOS}) i`);
  await db.$executeRawUnsafe(`
    INSERT INTO "Validator" (id, "scenarioId", position, "checkItem") SELECT 'v' || i, 's' || i, 0, 'check' FROM generate_series(1, ${SCENARIOS}) i`);
  await db.$executeRawUnsafe(`
    INSERT INTO "ValidatorVersion" (id, "validatorId", version, code, "checkItem", "producedBy")
    SELECT 'vv' || i, 'v' || i, 1, 'def check_func(s): return True', 'check', 'bench' FROM generate_series(1, ${SCENARIOS}) i`);
  await db.$executeRawUnsafe(`UPDATE "Validator" SET "currentVersionId" = 'vv' || substr(id, 2)`);
  await db.$executeRawUnsafe(`
    INSERT INTO "ValidatorProof" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", status, noop, gold, sensitivity)
    SELECT 'pf' || i, 's' || i, 'ev' || ((i - 1) / ${PER_ENV} + 1), jsonb_build_array('vv' || i), 'VERIFIED', '{}', '{}', '{}'
    FROM generate_series(1, ${SCENARIOS}) i`);
  // Success rate per scenario: a third always solved, a fifth never, the rest in between (two models).
  await db.$executeRawUnsafe(`
    INSERT INTO "Trajectory" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", "rolloutIndex", model, mode,
                              messages, steps, "finalState", "checkResults", reward, status, "stepCount")
    SELECT 't' || i || '-' || r, 's' || i, 'ev' || ((i - 1) / ${PER_ENV} + 1), jsonb_build_array('vv' || i), r,
           CASE WHEN r % 2 = 0 THEN 'model-a' ELSE 'model-b' END, 'non_conversational', '{}', '[]', '{}', '[]',
           CASE WHEN i % 3 = 0 THEN 1 WHEN i % 5 = 0 THEN 0 WHEN (i * 7 + r * 13) % 10 < 5 THEN 1 ELSE 0 END,
           'COMPLETED', 1
    FROM generate_series(1, ${SCENARIOS}) i, generate_series(0, ${ROLLOUTS - 1}) r`);
  // Rollouts under another validator version: present in the table, never counted.
  await db.$executeRawUnsafe(`
    INSERT INTO "Trajectory" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", "rolloutIndex", model, mode,
                              messages, steps, "finalState", "checkResults", reward, status, "stepCount")
    SELECT 'x' || i, 's' || i, 'ev' || ((i - 1) / ${PER_ENV} + 1), '["old"]', 100, 'model-a', 'non_conversational',
           '{}', '[]', '{}', '[]', 1, 'COMPLETED', 1
    FROM generate_series(1, ${SCENARIOS}) i`);
  // Each bulk statement above rewrote every scenario's plan facts (six versions of each row). Rows
  // written one rollout or proof at a time, as the studio writes them, are updated in place and
  // vacuumed as they go; compacting once stands for that steady state.
  await db.$executeRawUnsafe(`VACUUM FULL "ScenarioPlanFact"`);
  await db.$executeRawUnsafe(`VACUUM ANALYZE`);
}

async function time(fn: () => Promise<unknown>, runs = RUNS): Promise<number[]> {
  await fn(); // warm
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

type Pin = { scenarioId: string; environmentVersionId: string; validatorVersionIds: string[] };

/**
 * The baseline: the same sums taken over the rollouts on every read (no kept sums), carried and
 * decoded the way the kept sums are (one JSON text), so the two differ only in what they read.
 */
async function sumRollouts(db: Db, pins: Pin[]): Promise<CountsByScenario> {
  const [row] = await db.$queryRawUnsafe<{ sums: string | null }[]>(
    `SELECT json_agg(json_build_array(g."scenarioId", g."model", g."n", g."successes", g."rewardSum", g."rewardSquareSum"))::text AS sums
     FROM (
       SELECT t."scenarioId", t."model", count(*)::int AS "n",
              (count(*) FILTER (WHERE t."reward" = 1))::int AS "successes",
              sum(t."reward")::float8 AS "rewardSum", sum(t."reward" * t."reward")::float8 AS "rewardSquareSum"
       FROM jsonb_to_recordset($1::jsonb) AS p("scenarioId" text, "environmentVersionId" text, "validatorVersionIds" jsonb)
       JOIN "Trajectory" t ON t."scenarioId" = p."scenarioId" AND t."environmentVersionId" = p."environmentVersionId"
        AND t."validatorVersionIds" = p."validatorVersionIds"
       GROUP BY t."scenarioId", t."model") g`,
    JSON.stringify(pins),
  );
  return countsFromJson(row?.sums ?? null);
}

export async function main() {
  // CORPUS_DATABASE_URL: a corpus seeded earlier (CORPUS_KEEP=1), read as it is and kept.
  const reused = process.env.CORPUS_DATABASE_URL;
  const { url, drop } = reused ? { url: reused, drop: async () => {} } : await scratchDatabase();
  const db = createDb(url, 4);
  try {
    const t0 = performance.now();
    if (!reused) await seed(db);
    const seedS = (performance.now() - t0) / 1000;
    console.log(`seeded ${SCENARIOS} scenarios × ${ROLLOUTS} rollouts in ${seedS.toFixed(1)} s`);
    const base = { projectId: "p", name: "bench", testRatio: 0.2 };
    const filters = {
      excludeZeroSignal: true,
      trainBand: { min: 0.1, max: 0.9 },
      sort: "success_rate" as const,
    };
    const check = await previewDatasetVersion(db, { ...base, difficulty: filters });
    console.log(
      `preview: ${check.included.length} included, ${check.difficulty?.excludedZeroSignal} zero-signal and ${check.difficulty?.excludedByBand} out-of-band excluded; zero-signal share ${check.difficulty?.zeroSignalShareBefore} → ${check.difficulty?.zeroSignalShareAfter}`,
    );
    if (process.env.CORPUS_SEED_ONLY === "1") return;
    const page = PreviewPageSchema.parse({});
    // What a curator does on the page: filters and sorts, pages through both lists, shows the weak.
    const variants = [
      { difficulty: filters, page },
      {
        difficulty: { ...filters, sort: "p_signal" as const, groupSize: 16 },
        page: { ...page, offset: 2_000 },
      },
      {
        difficulty: { ...filters, testBand: { min: 0.2, max: 0.8 }, sort: "pass_at_k" as const },
        page: { ...page, excludedOffset: 5_000 },
      },
      {
        difficulty: { excludeZeroSignal: false, sort: "key" as const },
        page: { ...page, show: "weak" as const },
      },
    ];
    const identical = [];
    for (const v of variants) {
      const whole = previewPage(
        await previewDatasetVersion(db, { ...base, difficulty: v.difficulty }),
        v.page,
      );
      const paged = await previewDatasetPage(db, { ...base, difficulty: v.difficulty }, v.page);
      identical.push(isDeepStrictEqual(JSON.parse(JSON.stringify(whole)), JSON.parse(JSON.stringify(paged))));
    }
    console.log(`paged preview identical to the whole plan's page: ${identical.join(", ")}`);
    let turn = 0;
    const withDifficulty = await time(async () => {
      const v = variants[turn++ % variants.length] as (typeof variants)[number];
      return previewDatasetPage(db, { ...base, difficulty: v.difficulty }, v.page);
    }, RUNS * variants.length);
    const wholePlan = await time(async () =>
      previewPage(await previewDatasetVersion(db, { ...base, difficulty: filters }), page),
    );
    const pins = (
      await db.scenario.findMany({
        select: { id: true, environmentVersionId: true, acceptedValidatorVersionIds: true },
      })
    ).map((s) => ({
      scenarioId: s.id,
      environmentVersionId: s.environmentVersionId,
      validatorVersionIds: s.acceptedValidatorVersionIds as string[],
    }));
    const sql = await time(async () =>
      difficultyOf(
        await loadRolloutCounts(db, pins),
        pins.map((p) => p.scenarioId),
        { k: 4, groupSize: 8 },
      ),
    );
    const rollouts = await time(async () =>
      difficultyOf(
        await sumRollouts(db, pins),
        pins.map((p) => p.scenarioId),
        { k: 4, groupSize: 8 },
      ),
    );
    const metrics = {
      scenarios: SCENARIOS,
      rollouts: SCENARIOS * ROLLOUTS,
      seed_s: round(seedS),
      preview_difficulty_p50_ms: round(percentile(withDifficulty, 50)),
      preview_difficulty_p95_ms: round(percentile(withDifficulty, 95)),
      whole_plan_preview_p50_ms: round(percentile(wholePlan, 50)),
      whole_plan_over_paged_p50: round(percentile(wholePlan, 50) / percentile(withDifficulty, 50), 1),
      paged_pages_identical_to_whole_plan: identical.filter(Boolean).length,
      paged_pages_compared: identical.length,
      difficulty_sql_p50_ms: round(percentile(sql, 50)),
      difficulty_sql_p95_ms: round(percentile(sql, 95)),
      difficulty_over_rollouts_p50_ms: round(percentile(rollouts, 50)),
      rollouts_over_kept_sums: round(percentile(rollouts, 50) / percentile(sql, 50), 2),
    };
    writeResult("corpus", metrics, {
      preview_difficulty_p95_ms: "< 200 at 100,000 scenarios × 8 rollouts",
    });
  } finally {
    await db.$disconnect();
    if (process.env.CORPUS_KEEP === "1") console.log(`kept ${url}`);
    else await drop();
  }
}
