/** The export job handler against Postgres: progress, file output, SFT-only trajectories, failure. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { acceptAndProveScenarios, createTestProject, createTrajectory } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { EXPORT_FORMATS } from "../formats/registry";
import { runExport } from "./run-export";

const t = useTestDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), "exports-"));
let versionId = "";

beforeAll(async () => {
  process.env.ENVSTUDIO_DATA_DIR = dataDir;
  const { id: projectId } = await createTestProject(t.db, "exports");
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor: () => Promise.resolve([]) });
  await acceptAndProveScenarios(t.db, projectId);
  const scenarios = await t.db.scenario.findMany({
    where: { environment: { projectId } },
    orderBy: { externalId: "asc" },
  });
  await createTrajectory(t.db, scenarios[0]!.id);
  await createTrajectory(t.db, scenarios[0]!.id, { sftPass: false, rolloutIndex: 1 });
  versionId = (await createDatasetVersion(t.db, { projectId, name: "jobs" })).id;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("export job", () => {
  it.each(EXPORT_FORMATS)(
    "%s: runs to SUCCEEDED with processed = total and a folder on disk",
    async (format) => {
      const row = await t.db.export.create({ data: { datasetVersionId: versionId, format } });
      await runExport(t.db, row.id);
      const done = await t.db.export.findUniqueOrThrow({ where: { id: row.id } });
      expect(done).toMatchObject({ status: "SUCCEEDED", filePath: path.join(dataDir, "exports", row.id) });
      expect(done.processed).toBe(done.total);
      expect(Number(done.byteSize)).toBeGreaterThan(0);
    },
  );

  it("exports only trajectories that passed the SFT filter", async () => {
    const row = await t.db.export.create({ data: { datasetVersionId: versionId, format: "OPENAI_JSONL" } });
    await runExport(t.db, row.id);
    const dir = path.join(dataDir, "exports", row.id);
    const lines = ["train.jsonl", "test.jsonl"].flatMap((f) =>
      readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean),
    );
    expect(lines).toHaveLength(1);
  });

  it("fails a job that would write zero rows, with the reason", async () => {
    const { id: projectId } = await createTestProject(t.db, "empty");
    await seedSamples(t.db, {
      projectId,
      samples: loadSamples().slice(0, 1),
      toolsFor: () => Promise.resolve([]),
    });
    await acceptAndProveScenarios(t.db, projectId);
    const empty = await createDatasetVersion(t.db, { projectId, name: "no-trajectories" });
    const row = await t.db.export.create({
      data: { datasetVersionId: empty.id, format: "LLAMAFACTORY_SHAREGPT" },
    });
    await expect(runExport(t.db, row.id)).rejects.toThrow(
      /built from trajectories; dataset version 1 has none/,
    );
    expect(await t.db.export.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringContaining("run rollouts first") as unknown,
    });
  });

  it("marks the row FAILED with the message when the output cannot be written", async () => {
    const row = await t.db.export.create({ data: { datasetVersionId: versionId, format: "ENVSCALER_JSON" } });
    const blocker = path.join(dataDir, "a-file");
    writeFileSync(blocker, "not a directory");
    process.env.ENVSTUDIO_DATA_DIR = blocker;
    await expect(runExport(t.db, row.id)).rejects.toThrow(/ENOTDIR|EEXIST/);
    process.env.ENVSTUDIO_DATA_DIR = dataDir;
    expect(await t.db.export.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/a-file/) as unknown,
    });
  });
});
