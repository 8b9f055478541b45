/** startExport against Postgres and pg-boss: the row, the queued job, and a worker running it to the end. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { type RunningWorker, startWorker } from "@/lib/jobs/worker";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { exportJob } from "./export-job";
import { closeExportQueue, startExport } from "./start-export";

const t = useTestDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), "start-export-"));
let versionId = "";
let worker: RunningWorker | null = null;

beforeAll(async () => {
  process.env.ENVSTUDIO_DATA_DIR = dataDir;
  // The job handler opens the database the way the worker process does: getDb() from DATABASE_URL.
  process.env.DATABASE_URL = t.url;
  const { id: projectId } = await createTestProject(t.db, "start-export");
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor: () => Promise.resolve([]) });
  versionId = (await createDatasetVersion(t.db, { projectId, name: "queued", allowUnverified: true })).id;
});
afterAll(async () => {
  await worker?.stop();
  await closeExportQueue();
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitForTerminal(id: string, timeoutMs = 45_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await t.db.export.findUniqueOrThrow({ where: { id } });
    if (row.status === "SUCCEEDED" || row.status === "FAILED" || Date.now() > until) return row;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("startExport", () => {
  it("creates a QUEUED row and enqueues its job under a deterministic key", async () => {
    const row = await startExport(t.db, { datasetVersionId: versionId, format: "ENVSCALER_JSON" }, t.url);
    expect(row).toMatchObject({ status: "QUEUED", processed: 0, format: "ENVSCALER_JSON", datasetVersionId: versionId });
    const jobs = await t.db.$queryRawUnsafe<{ data: { exportId: string }; singleton_key: string }[]>(
      `SELECT data, singleton_key FROM pgboss.job WHERE name = $1`, exportJob.name,
    );
    expect(jobs).toContainEqual({ data: { exportId: row.id }, singleton_key: `export:${row.id}` });
  });

  it("refuses a trajectory format for a version without SFT trajectories, with the reason (issue 12 item 10)", async () => {
    const before = await t.db.export.count();
    await expect(startExport(t.db, { datasetVersionId: versionId, format: "OPENAI_JSONL" }, t.url)).rejects.toMatchObject({
      code: "INVALID_INPUT", message: expect.stringContaining("OpenAI chat fine-tuning JSONL is built from trajectories; dataset version 1 has none") as unknown,
    });
    expect(await t.db.export.count()).toBe(before);
  });

  it("rejects an unknown format before writing anything", async () => {
    const before = await t.db.export.count();
    await expect(startExport(t.db, { datasetVersionId: versionId, format: "CSV" as never }, t.url)).rejects.toThrow(/format/);
    expect(await t.db.export.count()).toBe(before);
  });

  it("with a worker running, the job fills the folder and ends with processed = total", async () => {
    worker = await startWorker(t.url, [exportJob]);
    const row = await startExport(t.db, { datasetVersionId: versionId, format: "ENVSCALER_JSON" }, t.url);
    const done = await waitForTerminal(row.id);
    expect(done).toMatchObject({ status: "SUCCEEDED", errorMessage: null, filePath: path.join(dataDir, "exports", row.id) });
    expect(done.total).toBe(await t.db.datasetItem.count({ where: { datasetVersionId: versionId } }));
    expect(done.processed).toBe(done.total);
    const scenarios = ["train", "test"].flatMap((split) => JSON.parse(readFileSync(path.join(done.filePath ?? "", `scenario_metadata_${split}.json`), "utf8")) as unknown[]);
    expect(scenarios).toHaveLength(done.total);
    expect(existsSync(path.join(done.filePath ?? "", "env_metadata.json"))).toBe(true);
  });
});
