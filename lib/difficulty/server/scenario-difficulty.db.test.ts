/**
 * Difficulty summed in SQL over a seeded set: only rollouts graded under the asked pins count
 * (other environment versions, other validator versions, or the same ids in another order do not),
 * whichever run produced them; figures match hand computation.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "@/lib/environments/hash";
import {
  createEnvironment,
  createScenario,
  createTestProject,
  createTrajectory,
} from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import {
  loadCorpusCounts,
  loadDatasetVersionCounts,
  loadRolloutCounts,
  loadScenarioDifficulty,
} from "./scenario-difficulty";

const t = useTestDatabase();

async function seeded() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id, { status: "ACCEPTED" });
  const scenario = await createScenario(t.db, env.id, {
    status: "ACCEPTED",
    checks: ["def check_func(s):\n    return True\n", "def check_func(s):\n    return False\n"],
  });
  const other = await createScenario(t.db, env.id, { status: "ACCEPTED" });
  const validators = await t.db.validator.findMany({
    where: { scenarioId: scenario.id },
    orderBy: { position: "asc" },
  });
  const vals = validators.map((v) => v.currentVersionId!);
  const envV1 = env.currentVersionId!;
  const envV2 = await t.db.environmentVersion.create({
    data: {
      environmentId: env.id,
      version: 2,
      className: "Counter",
      source: "x",
      sourceHash: sha256("x"),
      producedBy: "test",
    },
  });
  const valV2 = await t.db.validatorVersion.create({
    data: {
      validatorId: validators[0]!.id,
      version: 2,
      code: "def check_func(s):\n    return 1\n",
      checkItem: "c",
      producedBy: "test",
    },
  });
  const roll = (
    scenarioId: string,
    model: string,
    reward: number,
    pins: { env?: string; vals?: string[] } = {},
  ) =>
    createTrajectory(t.db, scenarioId, {
      model,
      reward,
      ...(pins.env ? { environmentVersionId: pins.env } : {}),
      ...(pins.vals ? { validatorVersionIds: pins.vals } : {}),
    });
  // Counted: model a [1, 1, 0, 0.5, 1], model b [0, 0, 0].
  for (const r of [1, 1, 0, 0.5, 1]) await roll(scenario.id, "a", r);
  for (const r of [0, 0, 0]) await roll(scenario.id, "b", r);
  // Not counted: another environment version, another validator version, the checks in another order.
  for (const r of [1, 1, 1]) await roll(scenario.id, "a", r, { env: envV2.id });
  await roll(scenario.id, "a", 1, { vals: [valV2.id, vals[1]!] });
  await roll(scenario.id, "b", 1, { vals: [vals[1]!, vals[0]!] });
  // Another scenario's rollouts stay its own.
  await roll(other.id, "a", 1);
  return { project, env, scenario, other, vals, envV1, envV2 };
}

describe("scenario difficulty in SQL", () => {
  it("counts only rollouts under the pins and matches hand computation (n > k)", async () => {
    const s = await seeded();
    const pin = { scenarioId: s.scenario.id, environmentVersionId: s.envV1, validatorVersionIds: s.vals };
    const d = (await loadScenarioDifficulty(t.db, [pin], { k: 2, groupSize: 4 })).get(s.scenario.id)!;
    // Pooled: n = 8, c = 3. pass@2 = 1 − C(5,2)/C(8,2) = 1 − 10/28; pass^2 = C(3,2)/C(8,2) = 3/28.
    expect(d).toMatchObject({ n: 8, successes: 3, success_rate: 0.375, k: 2, group_size: 4 });
    expect(d.pass_at_k).toBeCloseTo(1 - 10 / 28, 6);
    expect(d.pass_hat_k).toBeCloseTo(3 / 28, 6);
    expect(d.mean_reward).toBeCloseTo(3.5 / 8, 6);
    expect(d.reward_variance).toBeCloseTo(3.25 / 8 - (3.5 / 8) ** 2, 6);
    expect(d.p_signal).toBeCloseTo(1 - 0.375 ** 4 - 0.625 ** 4, 6);
    // Per model: a has n = 5, c = 3 (pass^2 = C(3,2)/C(5,2) = 3/10); b never succeeded.
    expect(d.per_model.a).toMatchObject({ n: 5, successes: 3, success_rate: 0.6, pass_hat_k: 0.3 });
    expect(d.per_model.b).toMatchObject({ n: 3, successes: 0, pass_at_k: 0, p_signal: 0 });
  });

  it("the other pins have their own counts; an unknown pin has none", async () => {
    const s = await seeded();
    const counts = await loadRolloutCounts(t.db, [
      { scenarioId: s.scenario.id, environmentVersionId: s.envV2.id, validatorVersionIds: s.vals },
      { scenarioId: s.other.id, environmentVersionId: s.envV2.id, validatorVersionIds: [] },
    ]);
    expect(counts.get(s.scenario.id)).toEqual({
      a: { n: 3, successes: 3, rewardSum: 3, rewardSquareSum: 3 },
    });
    expect(counts.has(s.other.id)).toBe(false);
    const none = await loadScenarioDifficulty(
      t.db,
      [{ scenarioId: s.other.id, environmentVersionId: s.envV2.id, validatorVersionIds: [] }],
      { k: 1, groupSize: 2 },
    );
    expect(none.get(s.other.id)).toMatchObject({ n: 0, success_rate: null, per_model: {} });
  });

  it("reads a dataset version's pins and the corpus's current pins in SQL", async () => {
    const s = await seeded();
    const dataset = await t.db.dataset.create({ data: { projectId: s.project.id, name: "d" } });
    const version = await t.db.datasetVersion.create({
      data: { datasetId: dataset.id, version: 1, seed: 1 },
    });
    await t.db.datasetItem.create({
      data: {
        datasetVersionId: version.id,
        scenarioId: s.scenario.id,
        environmentVersionId: s.envV1,
        validatorVersionIds: s.vals,
        split: "TRAIN",
      },
    });
    const counts = await loadDatasetVersionCounts(t.db, version.id);
    expect(counts.get(s.scenario.id)?.a).toMatchObject({ n: 5, successes: 3 });
    expect(counts.has(s.other.id)).toBe(false);
    const corpus = await loadCorpusCounts(t.db, s.project.id);
    expect(corpus.get(s.scenario.id)?.b).toMatchObject({ n: 3, successes: 0 });
    expect(corpus.get(s.other.id)?.a).toMatchObject({ n: 1, successes: 1 });
  });
});
