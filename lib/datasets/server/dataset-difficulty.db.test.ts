/**
 * Difficulty in the dataset builder: the preview leaves out zero-signal scenarios (counted only on
 * the item's pins) and scenarios outside a split's band, says how many and what it does to the
 * expected zero-signal share; the version made from it freezes each item's figures, so rollouts
 * added later change the next preview but not the version.
 */
import { describe, expect, it } from "vitest";
import {
  acceptAndProveScenarios,
  createProjectWithScenarios,
  createTrajectory,
} from "@/prisma/seed/factories";
import { ScenarioDifficultySchema } from "@/lib/difficulty/estimators";
import { useTestDatabase } from "@/tests/db";
import { createDatasetVersion, previewDatasetVersion } from "./create-dataset-version";

const t = useTestDatabase();

async function world() {
  const { project, scenarios } = await createProjectWithScenarios(t.db, 4, {
    environment: { slug: `shop-${Date.now()}` },
  });
  type Row = (typeof scenarios)[number];
  const [solved, failed, mixed, unmeasured] = scenarios as [Row, Row, Row, Row];
  await acceptAndProveScenarios(t.db, project.id);
  const roll = async (id: string, rewards: number[], extra = {}) => {
    for (const reward of rewards) await createTrajectory(t.db, id, { reward, ...extra });
  };
  await roll(solved.id, [1, 1, 1, 1]);
  await roll(failed.id, [0, 0, 0, 0]);
  await roll(mixed.id, [1, 0, 1, 0]);
  // Under other validator versions: would make "solved" look mixed if it counted.
  await roll(solved.id, [0, 0], { validatorVersionIds: ["another-version"] });
  return { project, solved: solved, failed: failed, mixed: mixed, unmeasured: unmeasured };
}

describe("difficulty in the dataset builder", () => {
  it("excludes zero-signal scenarios with reasons and shows the zero-signal share before and after", async () => {
    const w = await world();
    const base = { projectId: w.project.id, name: "signal", testRatio: 0 };
    const all = await previewDatasetVersion(t.db, { ...base, difficulty: { groupSize: 2 } });
    expect(all.included).toHaveLength(4);
    expect(all.difficulty).toMatchObject({ excludedZeroSignal: 0, measured: 3, groupSize: 2 });
    const plan = await previewDatasetVersion(t.db, {
      ...base,
      difficulty: { groupSize: 2, excludeZeroSignal: true, sort: "success_rate" },
    });
    expect(plan.included.map((i) => i.scenarioId)).toEqual([w.mixed.id, w.unmeasured.id]);
    // Scenario keys are random: compare the exclusions as a set.
    expect(plan.excluded.map((e) => [e.scenarioId, e.reason])).toEqual(
      expect.arrayContaining([
        [w.solved.id, "no learning signal: all 4 counted rollouts solved it"],
        [w.failed.id, "no learning signal: none of 4 counted rollouts solved it"],
      ]),
    );
    expect(plan.excluded).toHaveLength(2);
    // G = 2: no-signal chance 1 for the solved and failed ones, 0.5² + 0.5² = 0.5 for the mixed one.
    expect(plan.difficulty).toMatchObject({
      excludedZeroSignal: 2,
      zeroSignalShareBefore: 0.833333,
      zeroSignalShareAfter: 0.5,
    });
    expect(plan.included[0]?.difficulty).toMatchObject({
      n: 4,
      successes: 2,
      k: 4,
      pass_at_k: 1,
      pass_hat_k: 0,
    });
  });

  it("aims a split at a band of success rate; unmeasured scenarios cannot be placed in it", async () => {
    const w = await world();
    const plan = await previewDatasetVersion(t.db, {
      projectId: w.project.id,
      name: "band",
      testRatio: 0,
      difficulty: { trainBand: { min: 0.25, max: 0.75 } },
    });
    expect(plan.included.map((i) => i.scenarioId)).toEqual([w.mixed.id]);
    expect(plan.difficulty?.excludedByBand).toBe(3);
    expect(plan.excluded.find((e) => e.scenarioId === w.solved.id)?.reason).toBe(
      "success rate 100 % outside the train band 25 %–75 %",
    );
    expect(plan.excluded.find((e) => e.scenarioId === w.unmeasured.id)?.reason).toMatch(
      /no counted rollouts/,
    );
  });

  it("refuses a group size below 2 and a band upside down, creating nothing", async () => {
    const w = await world();
    const input = { projectId: w.project.id, name: "bad", isNew: true };
    await expect(createDatasetVersion(t.db, { ...input, difficulty: { groupSize: 1 } })).rejects.toThrow(
      /at least 2/,
    );
    await expect(
      createDatasetVersion(t.db, { ...input, difficulty: { testBand: { min: 0.8, max: 0.2 } } }),
    ).rejects.toThrow(/min must not exceed/);
    expect(await t.db.dataset.count({ where: { projectId: w.project.id } })).toBe(0);
  });

  it("freezes each item's difficulty in the version; later rollouts change only the next preview", async () => {
    const w = await world();
    const input = { projectId: w.project.id, name: "frozen", testRatio: 0, difficulty: { k: 2 } };
    const v1 = await createDatasetVersion(t.db, input);
    const item = await t.db.datasetItem.findFirstOrThrow({
      where: { datasetVersionId: v1.id, scenarioId: w.mixed.id },
    });
    const frozen = ScenarioDifficultySchema.parse(item.difficulty);
    expect(frozen).toMatchObject({ n: 4, successes: 2, k: 2, pass_hat_k: 0.166667 });
    expect(frozen.per_model["test-model"]).toMatchObject({ n: 4 });
    await createTrajectory(t.db, w.mixed.id, { reward: 1 });
    const again = await t.db.datasetItem.findFirstOrThrow({ where: { id: item.id } });
    expect(again.difficulty).toEqual(item.difficulty);
    const next = await previewDatasetVersion(t.db, input);
    expect(next.included.find((i) => i.scenarioId === w.mixed.id)?.difficulty).toMatchObject({
      n: 5,
      successes: 3,
    });
  });
});
