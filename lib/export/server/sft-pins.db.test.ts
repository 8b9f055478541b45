/**
 * SFT exports ship only trajectories graded by the checks the dataset pins: same scenario, same
 * environment version and the same validator versions. The row count that refuses an empty
 * export is the same rule, so it always equals what the export writes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import {
  actorOf,
  acceptAndProveScenarios,
  createEnvironment,
  createScenario,
  createTestProject,
  createTrajectory,
  createUser,
} from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { countSftTrajectories } from "./sft-trajectory-rule";
import { writeDatasetExport } from "./run-export";

const t = useTestDatabase();
const work = mkdtempSync(path.join(tmpdir(), "sft-pins-"));

/** The OpenAI JSONL export's rows over both splits (a split with no rows writes no file). */
async function exportedRows(datasetVersionId: string, name: string): Promise<string[]> {
  const dir = path.join(work, name);
  await writeDatasetExport(t.db, datasetVersionId, "OPENAI_JSONL", dir);
  return ["train.jsonl", "test.jsonl"].flatMap((f) => {
    try {
      return readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean);
    } catch {
      return [];
    }
  });
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("SFT exports", () => {
  it("ship only trajectories graded by the pinned checks, and count exactly those", async () => {
    const project = await createTestProject(t.db, "sft-pins");
    const env = await createEnvironment(t.db, project.id);
    const scenario = await createScenario(t.db, env.id);
    await acceptAndProveScenarios(t.db, project.id);
    const graded = await createTrajectory(t.db, scenario.id);
    const dataset = await createDatasetVersion(t.db, { projectId: project.id, name: "sft" });

    // The check is rewritten; a rollout graded by the new check passes the SFT filter.
    const user = await createUser(t.db, { role: "REVIEWER" });
    const check = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    await saveValidatorVersion(
      t.db,
      {
        validatorId: check.id,
        baseVersionId: check.currentVersionId!,
        code: "def check_func(final_state):\n    return True\n",
        message: "anything passes",
      },
      actorOf(user),
      analyzeOk,
    );
    const other = await createTrajectory(t.db, scenario.id, { rolloutIndex: 1 });
    expect(other.validatorVersionIds).not.toEqual(graded.validatorVersionIds);

    expect(await countSftTrajectories(t.db, dataset.id)).toBe(1);
    const rows = await exportedRows(dataset.id, "openai");
    expect(rows).toHaveLength(1);
  });

  it("count, over several items, the graded rollouts that passed the filter on each item's own pins", async () => {
    const project = await createTestProject(t.db, "sft-count");
    const env = await createEnvironment(t.db, project.id);
    const [a, b, c] = [
      await createScenario(t.db, env.id),
      await createScenario(t.db, env.id),
      await createScenario(t.db, env.id),
    ];
    await acceptAndProveScenarios(t.db, project.id);
    await createTrajectory(t.db, a.id);
    await createTrajectory(t.db, a.id, { rolloutIndex: 1 });
    await createTrajectory(t.db, b.id);
    await createTrajectory(t.db, b.id, { rolloutIndex: 1, sftPass: false });
    await createTrajectory(t.db, c.id, { rolloutIndex: 1, sftPass: null });
    // Graded by another scenario's checks: on c, but pinned to b's validator versions.
    const bPins = (await t.db.trajectory.findFirstOrThrow({ where: { scenarioId: b.id } }))
      .validatorVersionIds;
    await createTrajectory(t.db, c.id, { validatorVersionIds: bPins as string[] });
    const dataset = await createDatasetVersion(t.db, { projectId: project.id, name: "sft-count" });
    expect(await countSftTrajectories(t.db, dataset.id)).toBe(3);
    const rows = await exportedRows(dataset.id, "count");
    expect(rows).toHaveLength(3);
  });
});
