/**
 * "RolloutTally" is what difficulty reads instead of the rollouts, so it must equal a fresh sum over
 * "Trajectory" after every kind of write: inserts (one and many per statement), a reward regraded,
 * a rollout moved to other pins, deletes (one, and a scenario's cascade), a rolled-back insert, and
 * two writers adding to the same sums at once.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  createEnvironment,
  createScenario,
  createTestProject,
  createTrajectory,
} from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { someoneWaitsOnALock } from "@/tests/lock-wait";

const t = useTestDatabase();

type Sums = { key: string; n: number; successes: number; rewardSum: number; rewardSquareSum: number };

const round = (x: number) => Math.round(x * 1e9) / 1e9;
const normal = (rows: Sums[]) =>
  rows
    .map((r) => ({ ...r, rewardSum: round(r.rewardSum), rewardSquareSum: round(r.rewardSquareSum) }))
    .sort((a, b) => a.key.localeCompare(b.key));

/** The tally as stored, and the same sums computed from the rollouts now. */
async function tallyAndTruth() {
  const tally = await t.db.$queryRaw<Sums[]>`
    SELECT concat_ws('|', "scenarioId", "environmentVersionId", "validatorVersionKey", "model") AS key,
           "n", "successes", "rewardSum", "rewardSquareSum" FROM "RolloutTally"`;
  const truth = await t.db.$queryRaw<Sums[]>`
    SELECT concat_ws('|', "scenarioId", "environmentVersionId", "validatorVersionIds"::text, "model") AS key,
           count(*)::int AS "n", (count(*) FILTER (WHERE "reward" = 1))::int AS "successes",
           sum("reward")::float8 AS "rewardSum", sum("reward" * "reward")::float8 AS "rewardSquareSum"
    FROM "Trajectory" GROUP BY 1`;
  return { tally: normal(tally), truth: normal(truth) };
}

async function expectExact() {
  const { tally, truth } = await tallyAndTruth();
  expect(tally).toEqual(truth);
  return tally;
}

async function seeded() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id, { status: "ACCEPTED" });
  const a = await createScenario(t.db, env.id, { status: "ACCEPTED" });
  const b = await createScenario(t.db, env.id, { status: "ACCEPTED" });
  return { project, env, a, b };
}

describe("rollout tally", () => {
  it("follows inserts, a regrade, a move to other pins, deletes and a scenario's cascade", async () => {
    const { a, b } = await seeded();
    for (const reward of [1, 0, 0.5, 1]) await createTrajectory(t.db, a.id, { model: "m1", reward });
    await createTrajectory(t.db, a.id, { model: "m2", reward: 0.25 });
    const moved = await createTrajectory(t.db, b.id, { model: "m1", reward: 1 });
    const first = await expectExact();
    expect(first.find((r) => r.key.startsWith(a.id) && r.key.endsWith("|m1"))).toMatchObject({
      n: 4,
      successes: 2,
      rewardSum: 2.5,
      rewardSquareSum: 2.25,
    });

    // Many rows in one statement (the trigger runs once per statement).
    await t.db.$executeRaw`
      INSERT INTO "Trajectory" ("id", "scenarioId", "environmentVersionId", "validatorVersionIds", "rolloutIndex",
        "model", "mode", "messages", "steps", "finalState", "checkResults", "reward", "status", "stepCount")
      SELECT 'bulk-' || i, ${b.id}, x."environmentVersionId", x."validatorVersionIds", i, 'm1', 'fc',
             '{}', '[]', '{}', '[]', CASE WHEN i % 3 = 0 THEN 1 ELSE 0.5 END, 'COMPLETED', 1
      FROM generate_series(1, 30) i, (SELECT * FROM "Trajectory" WHERE "id" = ${moved.id}) x`;
    await expectExact();

    // A regrade, then a move to other validator versions (the old sums shrink, new ones appear).
    await t.db.trajectory.update({ where: { id: moved.id }, data: { reward: 0 } });
    await expectExact();
    await t.db.trajectory.update({ where: { id: moved.id }, data: { validatorVersionIds: ["other"] } });
    const afterMove = await expectExact();
    expect(afterMove.some((r) => r.key.includes('["other"]'))).toBe(true);
    // An update that touches nothing counted leaves the sums as they were.
    await t.db.trajectory.updateMany({ where: { scenarioId: a.id }, data: { flagReason: "looked at" } });
    expect(await expectExact()).toEqual(afterMove);

    await t.db.trajectory.delete({ where: { id: moved.id } });
    const afterDelete = await expectExact();
    expect(afterDelete.some((r) => r.key.includes('["other"]'))).toBe(false); // emptied sums are removed
    await t.db.scenario.delete({ where: { id: b.id } });
    const left = await expectExact();
    expect(left.every((r) => r.key.startsWith(a.id))).toBe(true);
  });

  it("follows the rollout writer's upsert: written once, then rewritten after a crash with a new grade", async () => {
    const { project, a } = await seeded();
    const run = await t.db.pipelineRun.create({ data: { projectId: project.id, kind: "ROLLOUT" } });
    const template = await createTrajectory(t.db, a.id, { model: "m1", reward: 1 });
    const { id: _id, createdAt: _at, ...data } = template;
    const ids = { runId: run.id, scenarioId: a.id, rolloutIndex: 3 };
    const write = (reward: number) =>
      t.db.trajectory.upsert({
        where: { runId_scenarioId_rolloutIndex: ids },
        create: { ...data, ...ids, reward } as never,
        update: { reward },
      });
    await write(1);
    await expectExact();
    await write(0); // the same rollout written again: it replaces, it does not add
    const tally = await expectExact();
    expect(tally.find((r) => r.key.startsWith(a.id) && r.key.endsWith("|m1"))).toMatchObject({
      n: 2,
      successes: 1,
    });
  });

  it("a rolled-back insert leaves no trace", async () => {
    const { a } = await seeded();
    await createTrajectory(t.db, a.id, { model: "m1", reward: 1 });
    const before = await expectExact();
    await expect(
      t.db.$transaction(async (tx) => {
        await createTrajectory(tx as never, a.id, { model: "m1", reward: 1 });
        throw new Error("crash after the write");
      }),
    ).rejects.toThrow("crash after the write");
    expect(await expectExact()).toEqual(before);
  });

  it("two writers adding to the same sums at once both count", async () => {
    const { a } = await seeded();
    const template = await createTrajectory(t.db, a.id, { model: "m1", reward: 1 });
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      // Holds the tally row's lock until it commits.
      await holder.query(
        `INSERT INTO "Trajectory" ("id", "scenarioId", "environmentVersionId", "validatorVersionIds", "rolloutIndex",
           "model", "mode", "messages", "steps", "finalState", "checkResults", "reward", "status", "stepCount")
         SELECT 'held', "scenarioId", "environmentVersionId", "validatorVersionIds", 7, "model", "mode", '{}', '[]',
                '{}', '[]', 0, 'COMPLETED', 1 FROM "Trajectory" WHERE "id" = $1`,
        [template.id],
      );
      const second = createTrajectory(t.db, a.id, { model: "m1", reward: 1, rolloutIndex: 8 });
      await someoneWaitsOnALock(holder, "the second writer");
      await holder.query("COMMIT");
      await second;
    } finally {
      await holder.end();
    }
    const tally = await expectExact();
    expect(tally.find((r) => r.key.startsWith(a.id) && r.key.endsWith("|m1"))).toMatchObject({
      n: 3,
      successes: 2,
    });
  });
});
