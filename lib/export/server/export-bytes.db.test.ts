/**
 * A dataset version is immutable, and so are its exports: after a reviewer edits a check's
 * checklist text and code, and the dataset gets a new version with a new description, exporting
 * the old version again gives byte-identical files in every format — also after more rollouts of
 * its scenarios are stored (its difficulty figures were frozen when it was made).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import {
  actorOf,
  acceptAndProveScenarios,
  createTestProject,
  createTrajectory,
  createUser,
} from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { exportEveryFormat } from "@/tests/export-tree";

const t = useTestDatabase();
const work = mkdtempSync(path.join(tmpdir(), "export-bytes-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("re-exporting an old dataset version", () => {
  it("gives byte-identical files after its checks' text and code are edited and more rollouts are stored", async () => {
    const { id: projectId } = await createTestProject(t.db, "export-bytes");
    await seedSamples(t.db, { projectId, samples: [loadSamples()[0]!], toolsFor: () => Promise.resolve([]) });
    await acceptAndProveScenarios(t.db, projectId);
    const scenario = await t.db.scenario.findFirstOrThrow({
      where: { environment: { projectId } },
      orderBy: { externalId: "asc" },
      include: { validators: { orderBy: { position: "asc" }, include: { currentVersion: true } } },
    });
    await createTrajectory(t.db, scenario.id);
    const name = "frozen";
    const v1 = await createDatasetVersion(t.db, { projectId, name, description: "as first made" });
    const before = await exportEveryFormat(t.db, v1.id, path.join(work, "before"));

    const user = await createUser(t.db, { role: "REVIEWER" });
    const check = scenario.validators[0]!;
    await saveValidatorVersion(
      t.db,
      {
        validatorId: check.id,
        baseVersionId: check.currentVersionId!,
        code: `${check.currentVersion!.code}\n# tightened later\n`,
        checkItem: `${check.checkItem} (reworded later)`,
        message: "reword and tighten",
      },
      actorOf(user),
      analyzeOk,
    );
    // More rollouts on exactly the version's pins: the live difficulty changes, the frozen one does not.
    for (const reward of [0, 0, 1]) await createTrajectory(t.db, scenario.id, { reward, sftPass: false });
    await createDatasetVersion(t.db, { projectId, name, description: "described differently later" });

    for (const [format, after] of await exportEveryFormat(t.db, v1.id, path.join(work, "after"))) {
      const expected = before.get(format)!;
      expect([...after.keys()].sort(), format).toEqual([...expected.keys()].sort());
      for (const [file, bytes] of after)
        expect(bytes.equals(expected.get(file)!), `${format}: ${file} changed`).toBe(true);
    }
    // The edit itself is real: the new version carries the new text.
    const edited = await t.db.validator.findUniqueOrThrow({
      where: { id: check.id },
      include: { currentVersion: true },
    });
    expect(edited.currentVersion?.checkItem).toBe(`${check.checkItem} (reworded later)`);
    // And the export carries the difficulty frozen at v1 (one rollout, solved), in its metadata.
    const metadata = before.get("ENVSCALER_JSON")!.get("scenario_metadata_train.json")?.toString() ?? "";
    const tests = before.get("ENVSCALER_JSON")!.get("scenario_metadata_test.json")?.toString() ?? "";
    expect(`${metadata}${tests}`).toContain('"difficulty":{"n":1,"successes":1,');
  });
});
