import "server-only";
/**
 * Runs one Export row: streams the dataset version through the format's writer into
 * `<data dir>/exports/<exportId>/`, updating processed/total as it goes. Safe to re-run (a retried
 * job starts the folder again). Errors mark the row FAILED with the message.
 */
import { rmSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { type Db, Prisma } from "@/lib/db";
import { JobError } from "@/lib/jobs/job-definition";
import { createDirSink } from "../sink";
import { emptyExportReason } from "../empty-export";
import { FORMATS } from "../formats/registry";
import { writeExport } from "../write-export";
import { loadDatasetInfo, loadExportEnvironments, streamExportScenarios } from "./load-export-input";
import { readEnv } from "../../env";

export const exportsDir = () => path.resolve(readEnv("ENVSTUDIO_DATA_DIR"), "exports");

function folderSize(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, e) =>
      sum + (e.isDirectory() ? folderSize(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
    0,
  );
}

/** Whether the version froze difficulty figures with its items (versions made before did not). */
async function hasFrozenDifficulty(db: Db, datasetVersionId: string): Promise<boolean> {
  const item = await db.datasetItem.findFirst({
    where: { datasetVersionId, difficulty: { not: Prisma.DbNull } },
    select: { id: true },
  });
  return item !== null;
}

/** Writes the export into `dir`; used by the job and directly by the CLI. */
export async function writeDatasetExport(
  db: Db,
  datasetVersionId: string,
  format: Parameters<typeof writeExport>[0],
  dir: string,
  onProgress?: (n: number) => Promise<void> | void,
  signal?: AbortSignal,
) {
  const { total, ...dataset } = await loadDatasetInfo(db, datasetVersionId);
  const envs = await loadExportEnvironments(db, datasetVersionId);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const scenarios = streamExportScenarios(db, datasetVersionId, envs, FORMATS[format].needs.trajectories);
  const withDifficulty = await hasFrozenDifficulty(db, datasetVersionId);
  const summary = await writeExport(
    format,
    { dataset, environments: envs.map((e) => e.env), scenarios, onProgress, signal, withDifficulty },
    createDirSink(dir),
  );
  // Zero rows is a failure with its reason (the job marks the row FAILED; the CLI prints it).
  if (summary.rows === 0) throw new Error(emptyExportReason(format, dataset.version));
  return { ...summary, total, bytes: folderSize(dir) };
}

export async function runExport(db: Db, exportId: string, opts: { signal?: AbortSignal } = {}) {
  const row = await db.export.findUnique({ where: { id: exportId } });
  if (!row) throw new JobError(`export ${exportId} does not exist`, false);
  if (row.status === "SUCCEEDED") return { skipped: true };
  const total = await db.datasetItem.count({ where: { datasetVersionId: row.datasetVersionId } });
  await db.export.update({
    where: { id: exportId },
    data: { status: "RUNNING", total, processed: 0, errorMessage: null },
  });
  const dir = path.join(exportsDir(), exportId);
  let last = 0;
  // Progress writes are throttled: one UPDATE per 250 scenarios or per second, whichever is later.
  const onProgress = async (processed: number) => {
    if (processed - last < 250 && processed !== total) return;
    last = processed;
    await db.export.update({ where: { id: exportId }, data: { processed } });
  };
  try {
    const summary = await writeDatasetExport(
      db,
      row.datasetVersionId,
      row.format,
      dir,
      onProgress,
      opts.signal,
    );
    await db.export.update({
      where: { id: exportId },
      data: {
        status: "SUCCEEDED",
        processed: summary.scenarios,
        filePath: dir,
        byteSize: BigInt(summary.bytes),
        finishedAt: new Date(),
      },
    });
    return { files: summary.files.length, scenarios: summary.scenarios };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.export.update({
      where: { id: exportId },
      data: { status: "FAILED", errorMessage: message, finishedAt: new Date() },
    });
    throw new JobError(message, false, { cause: error });
  }
}
