/**
 * `npm run bench -- corpus`: per-scenario difficulty at corpus scale. Seeds (bulk SQL) 100,000
 * accepted, proven scenarios in 10,000 environments with 8 rollouts each (800,000 trajectories,
 * plus 100,000 under other validator versions that must not count), then times:
 *   - the dataset preview with difficulty filters (zero-signal exclusion, a train band, sorted by
 *     success rate): server time of what the page's action runs, the plan and its first page;
 *   - difficulty alone for every pin, read from the per-pins sums the triggers keep ("RolloutTally"),
 *     against the baseline of summing the rollouts themselves in SQL on every read.
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 * CORPUS_SCENARIOS scales it down for a quick look.
 */
import { createDb } from "../lib/db";
import { previewDatasetVersion } from "../lib/datasets/server/create-dataset-version";
import { difficultyOf, loadRolloutCounts } from "../lib/difficulty/server/scenario-difficulty";
import { PreviewPageSchema, previewPage } from "../lib/datasets/preview-page";
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
  await db.$executeRawUnsafe(`ANALYZE`);
}

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

type Pin = { scenarioId: string; environmentVersionId: string; validatorVersionIds: string[] };

/** The baseline: the same sums taken over the rollouts on every read (no kept sums). */
async function sumRollouts(db: Db, pins: Pin[]) {
  return db.$queryRawUnsafe<unknown[]>(
    `SELECT t."scenarioId", t."model", count(*)::int AS "n",
            (count(*) FILTER (WHERE t."reward" = 1))::int AS "successes",
            sum(t."reward")::float8 AS "rewardSum", sum(t."reward" * t."reward")::float8 AS "rewardSquareSum"
     FROM jsonb_to_recordset($1::jsonb) AS p("scenarioId" text, "environmentVersionId" text, "validatorVersionIds" jsonb)
     JOIN "Trajectory" t ON t."scenarioId" = p."scenarioId" AND t."environmentVersionId" = p."environmentVersionId"
      AND t."validatorVersionIds" = p."validatorVersionIds"
     GROUP BY t."scenarioId", t."model"`,
    JSON.stringify(pins),
  );
}

export async function main() {
  const { url, drop } = await scratchDatabase();
  const db = createDb(url, 4);
  try {
    const t0 = performance.now();
    await seed(db);
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
    const withDifficulty = await time(async () =>
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
    const rollouts = await time(() => sumRollouts(db, pins));
    const metrics = {
      scenarios: SCENARIOS,
      rollouts: SCENARIOS * ROLLOUTS,
      seed_s: round(seedS),
      preview_difficulty_p50_ms: round(percentile(withDifficulty, 50)),
      preview_difficulty_p95_ms: round(percentile(withDifficulty, 95)),
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
