import "server-only";
/**
 * A finished export as one download: the single file of a one-file export (or the file asked for),
 * otherwise the whole folder as a streamed tar. NOT_FOUND until the export has SUCCEEDED.
 */
import { createReadStream, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { tarDirectory } from "../tar";

export type ExportDownload = { body: Readable; contentType: string; filename: string };

const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".parquet": "application/vnd.apache.parquet",
  ".md": "text/markdown; charset=utf-8",
  ".py": "text/x-python; charset=utf-8",
  ".toml": "application/toml",
  ".yaml": "application/yaml",
};

function listFiles(dir: string, base = ""): string[] {
  return readdirSync(path.join(dir, base), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(dir, path.posix.join(base, e.name)) : [path.posix.join(base, e.name)],
    )
    .sort();
}

export async function listExportFiles(db: Db, exportId: string) {
  const row = await db.export.findUnique({
    where: { id: exportId },
    include: { datasetVersion: { include: { dataset: { select: { name: true } } } } },
  });
  if (!row) throw new AppError("NOT_FOUND", `Export ${exportId} does not exist.`);
  if (row.status !== "SUCCEEDED" || !row.filePath || !existsSync(row.filePath)) {
    throw new AppError("NOT_FOUND", `Export ${exportId} is not ready (${row.status.toLowerCase()}).`);
  }
  const stem = `${row.datasetVersion.dataset.name}-v${row.datasetVersion.version}-${row.format.toLowerCase().replaceAll("_", "-")}`;
  return { dir: row.filePath, stem, files: listFiles(row.filePath) };
}

export async function openExportDownload(db: Db, exportId: string, file?: string): Promise<ExportDownload> {
  const { dir, stem, files } = await listExportFiles(db, exportId);
  // Only names from the listing are served, so `file` can never reach outside the export folder.
  const one = file !== undefined ? files.find((f) => f === file) : files.length === 1 ? files[0] : undefined;
  if (file !== undefined && !one)
    throw new AppError("NOT_FOUND", `Export ${exportId} has no file "${file}".`);
  if (one) {
    return {
      body: createReadStream(path.join(dir, one)),
      contentType: CONTENT_TYPES[path.extname(one)] ?? "application/octet-stream",
      filename: path.posix.basename(one),
    };
  }
  return { body: tarDirectory(dir, stem), contentType: "application/x-tar", filename: `${stem}.tar` };
}
