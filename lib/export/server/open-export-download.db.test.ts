/** Downloads of finished exports: one file, a folder as tar, a named file, and refusals. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { findDatasetExports } from "./find-exports";
import { openExportDownload } from "./open-export-download";
import { runExport } from "./run-export";

const t = useTestDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), "download-"));
let versionId = "";
let datasetId = "";

beforeAll(async () => {
  process.env.ENVSTUDIO_DATA_DIR = dataDir;
  const { id: projectId } = await createTestProject(t.db, "download");
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor: () => Promise.resolve([]) });
  const v = await createDatasetVersion(t.db, { projectId, name: "dl", allowUnverified: true });
  versionId = v.id;
  datasetId = v.datasetId;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function finished(format: "ENVSCALER_JSON" | "OPENAI_JSONL") {
  const row = await t.db.export.create({ data: { datasetVersionId: versionId, format } });
  await runExport(t.db, row.id);
  return row.id;
}

describe("openExportDownload", () => {
  it("is NOT_FOUND for an unknown or unfinished export", async () => {
    await expect(openExportDownload(t.db, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const queued = await t.db.export.create({
      data: { datasetVersionId: versionId, format: "VERL_PARQUET" },
    });
    await expect(openExportDownload(t.db, queued.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("not ready (queued)") as unknown,
    });
  });

  it("streams a multi-file export as a tar named after the dataset, version and format", async () => {
    const id = await finished("ENVSCALER_JSON");
    const d = await openExportDownload(t.db, id);
    expect(d).toMatchObject({ contentType: "application/x-tar", filename: "dl-v1-envscaler-json.tar" });
    const body = await text(d.body);
    expect(body.slice(0, 100)).toMatch(/^dl-v1-envscaler-json\/env_metadata\.json/);
    expect(body).toContain("dl-v1-envscaler-json/scenario_metadata_train.json");
  });

  it("serves one named file from the listing, and nothing outside it", async () => {
    const id = await finished("ENVSCALER_JSON");
    const d = await openExportDownload(t.db, id, "scenario_metadata_train.json");
    expect(d).toMatchObject({ contentType: "application/json", filename: "scenario_metadata_train.json" });
    expect(JSON.parse(await text(d.body))).toHaveLength(
      await t.db.datasetItem.count({ where: { datasetVersionId: versionId, split: "TRAIN" } }),
    );
    await expect(openExportDownload(t.db, id, "../../etc/passwd")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("lists the dataset's exports newest first with JSON-safe sizes", async () => {
    const list = await findDatasetExports(t.db, datasetId);
    expect(list[0]).toMatchObject({ version: 1, status: "SUCCEEDED", format: "ENVSCALER_JSON" });
    expect(typeof list[0]?.byteSize).toBe("number");
    expect(list.map((e) => e.status)).toContain("QUEUED");
    expect(() => JSON.stringify(list)).not.toThrow();
  });
});
