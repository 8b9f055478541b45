/**
 * Validator strength in exports: a dataset version records each item's strength when it is made
 * (from the proof of exactly its pins), every format with a metadata place carries it as
 * `near_miss_strength`, a later proof of the same pins changes none of the version's bytes, and a
 * version made before strength was recorded exports without the key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/db";
import { createDatasetVersion, previewDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { createSandboxRunner } from "@/lib/sandbox";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { createTrajectory } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { exportEveryFormat } from "@/tests/export-tree";
import { COUNT_IS_2, TWO_CHANGE_GOLD as GOLD } from "@/tests/two-change-counter";
import { seedCounterEnvironment, seedCounterScenario } from "@/tests/two-change-counter-seed";

const t = useTestDatabase();
const runner = createSandboxRunner();
const work = mkdtempSync(path.join(tmpdir(), "near-miss-export-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await runner.close();
});

const exportAll = (versionId: string, label: string) =>
  exportEveryFormat(t.db, versionId, path.join(work, label));

/** A weak scenario (its check looks at the count only), proven for real and accepted on those pins. */
async function seedWeakAccepted() {
  const { project, env } = await seedCounterEnvironment(t.db, runner, "near-miss-export");
  // A task that names no label: no near-miss alters the tag's, so three are derived.
  const scenario = await seedCounterScenario(t.db, env.id, [COUNT_IS_2], { task: "Add 2 to the counter." });
  const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox: runner });
  expect(proven.ok && proven.value.status).toBe("VERIFIED");
  await t.db.environment.update({
    where: { id: env.id },
    data: { status: "ACCEPTED", acceptedVersionId: env.currentVersionId },
  });
  const validators = await t.db.validator.findMany({ where: { scenarioId: scenario.id } });
  await t.db.scenario.update({
    where: { id: scenario.id },
    data: { status: "ACCEPTED", acceptedValidatorVersionIds: validators.map((v) => v.currentVersionId!) },
  });
  await createTrajectory(t.db, scenario.id);
  return { project, scenario };
}

const PASSED = [{ kind: "drop", description: "skips call 2 (tag)", calls: [GOLD[0]] }];

describe("near_miss_strength in exports", () => {
  it("is recorded with the version, carried by every format with a metadata place, and frozen", async () => {
    const { project, scenario } = await seedWeakAccepted();
    const plan = await previewDatasetVersion(t.db, { projectId: project.id, name: "strength" });
    expect(plan.included[0]?.strength).toMatchObject({ status: "MEASURED", total: 3, rejected: 2 });
    expect(plan.warnings.join(" ")).toContain("1 included scenario(s) have a weak validator");
    const v1 = await createDatasetVersion(t.db, { projectId: project.id, name: "strength" });
    const before = await exportAll(v1.id, "before");
    const text = (format: string, file: string) => before.get(format)!.get(file)!.toString("utf8");
    const expected = { rejected: 2, total: 3, passed: PASSED };

    const envscaler = JSON.parse(text("ENVSCALER_JSON", "scenario_metadata_train.json")) as unknown[];
    const test = JSON.parse(text("ENVSCALER_JSON", "scenario_metadata_test.json")) as unknown[];
    expect([...envscaler, ...test]).toEqual([expect.objectContaining({ near_miss_strength: expected })]);
    const pkg = [...before.get("OPENENV_PACKAGE")!.keys()].find((f) => f.endsWith("scenarios.json"))!;
    expect(JSON.parse(text("OPENENV_PACKAGE", pkg))).toEqual([
      expect.objectContaining({ near_miss_strength: expected }),
    ]);
    expect(JSON.parse(text("VERL_PARQUET", "scenario_metadata.json"))).toEqual([
      expect.objectContaining({ near_miss_strength: expected }),
    ]);
    const hfRows = ["data/train.jsonl", "data/test.jsonl"]
      .flatMap((f) => text("HF_DATASET", f).split("\n"))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { near_miss_strength: string });
    expect(hfRows.map((r) => JSON.parse(r.near_miss_strength) as unknown)).toEqual([expected]);
    expect(text("HF_DATASET", "README.md")).toContain("- name: near_miss_strength");
    const manifest = JSON.parse(text("OPENAI_JSONL", "envstudio_versions.json")) as { scenarios: unknown[] };
    expect(manifest.scenarios).toEqual([expect.objectContaining({ near_miss_strength: expected })]);

    // A later proof of the same pins finds the checks strong: the version's exports do not change.
    const pins = await t.db.validatorProof.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    await t.db.validatorProof.create({
      data: {
        scenarioId: scenario.id,
        environmentVersionId: pins.environmentVersionId,
        validatorVersionIds: pins.validatorVersionIds as Prisma.InputJsonValue,
        status: "VERIFIED",
        noop: {},
        gold: { calls: GOLD },
        sensitivity: {},
        nearMiss: { status: "MEASURED", reason: null, cap: 24, stateChangingCalls: [0, 1], results: [] },
      },
    });
    const after = await exportAll(v1.id, "after");
    for (const [format, files] of before)
      for (const [file, bytes] of files)
        expect(after.get(format)!.get(file)!.equals(bytes), `${format}: ${file}`).toBe(true);
  });

  it("leaves the key out of a version made before strength was recorded", async () => {
    const { project } = await seedWeakAccepted();
    const v1 = await createDatasetVersion(t.db, { projectId: project.id, name: "older" });
    await t.db.datasetItem.updateMany({
      where: { datasetVersionId: v1.id },
      data: { nearMissStrength: Prisma.DbNull },
    });
    const files = await exportAll(v1.id, "older");
    for (const [format, tree] of files)
      for (const [file, bytes] of tree) expect(bytes.includes("near_miss"), `${format}: ${file}`).toBe(false);
  });
});
