/**
 * TEST ONLY. A dataset version exported in every format, read back as bytes, for tests that
 * compare one export of a version with another.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db";
import { EXPORT_FORMATS } from "@/lib/export/formats/registry";
import { writeDatasetExport } from "@/lib/export/server/run-export";

/** Every file under `dir` by relative path, as bytes. */
export function readTree(dir: string, prefix = ""): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const e of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) for (const [k, v] of readTree(dir, rel)) files.set(k, v);
    else files.set(rel, readFileSync(path.join(dir, rel)));
  }
  return files;
}

/** The version exported in every format under `dir/<format>`, each read back by file. */
export async function exportEveryFormat(
  db: Db,
  versionId: string,
  dir: string,
): Promise<Map<string, Map<string, Buffer>>> {
  const out = new Map<string, Map<string, Buffer>>();
  for (const format of EXPORT_FORMATS) {
    const formatDir = path.join(dir, format);
    await writeDatasetExport(db, versionId, format, formatDir);
    out.set(format, readTree(formatDir));
  }
  return out;
}
