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
import { loadJobHandler } from "@/lib/jobs/server/job-handlers";
import { closeJobQueue } from "@/lib/jobs/server/send-job";
import { EXPORT_JOB } from "../export-job";
import { startExport } from "./start-export";

const t = useTestDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), "start-export-"));
let versionId = "";
let worker: RunningWorker | null = null;

beforeAll(async () => {
  process.env.ENVSTUDIO_DATA_DIR = dataDir;
  // startExport enqueues through the process's producer, which connects the way the studio does: DATABASE_URL.
  process.env.DATABASE_URL = t.url;
  const { id: projectId } = await createTestProject(t.db, "start-export");
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor: () => Promise.resolve([]) });
  versionId = (await createDatasetVersion(t.db, { projectId, name: "queued", allowUnverified: true })).id;
});
afterAll(async () => {
  await worker?.stop();
  await closeJobQueue();
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
    const row = await startExport(t.db, { datasetVersionId: versionId, format: "ENVSCALER_JSON" });
    expect(row).toMatchObject({
      status: "QUEUED",
      processed: 0,
      format: "ENVSCALER_JSON",
      datasetVersionId: versionId,
    });
    const jobs = await t.db.$queryRawUnsafe<{ data: { exportId: string }; singleton_key: string }[]>(
      `SELECT data, singleton_key FROM pgboss.job WHERE name = $1`,
      EXPORT_JOB.name,
    );
    expect(jobs).toContainEqual({ data: { exportId: row.id }, singleton_key: `export:${row.id}` });
  });

  it("refuses a trajectory format for a version without SFT trajectories, with the reason", async () => {
    const before = await t.db.export.count();
    await expect(
      startExport(t.db, { datasetVersionId: versionId, format: "OPENAI_JSONL" }),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining(
        "OpenAI chat fine-tuning JSONL is built from trajectories; dataset version 1 has none",
      ) as unknown,
    });
    expect(await t.db.export.count()).toBe(before);
  });

  it("rejects an unknown format before writing anything", async () => {
    const before = await t.db.export.count();
    await expect(startExport(t.db, { datasetVersionId: versionId, format: "CSV" as never })).rejects.toThrow(
      /format/,
    );
    expect(await t.db.export.count()).toBe(before);
  });

  it("with a worker running, the job fills the folder and ends with processed = total", async () => {
    worker = await startWorker(t.url, [EXPORT_JOB], { db: t.db, loadHandler: loadJobHandler });
    const row = await startExport(t.db, { datasetVersionId: versionId, format: "ENVSCALER_JSON" });
    const done = await waitForTerminal(row.id);
    expect(done).toMatchObject({
      status: "SUCCEEDED",
      errorMessage: null,
      filePath: path.join(dataDir, "exports", row.id),
    });
    expect(done.total).toBe(await t.db.datasetItem.count({ where: { datasetVersionId: versionId } }));
    expect(done.processed).toBe(done.total);
    const scenarios = ["train", "test"].flatMap(
      (split) =>
        JSON.parse(
          readFileSync(path.join(done.filePath ?? "", `scenario_metadata_${split}.json`), "utf8"),
        ) as unknown[],
    );
    expect(scenarios).toHaveLength(done.total);
    expect(existsSync(path.join(done.filePath ?? "", "env_metadata.json"))).toBe(true);
  });
});
