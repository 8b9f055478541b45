/** Import domain function: files → located error, or everything written in one transaction. */
import { type Result, err, ok } from "@/lib/core/result";
import type { Db } from "@/lib/db";
import type { SandboxRunner } from "@/lib/sandbox";
import type { ImportError, ImportedEnvironment, OnExisting } from "../import.schema";
import type { ImportFile } from "../read-files";
import { type ReadImportOptions, readImport } from "../read-import";
import { ImportConflictError, writeImportPlan } from "./write-import";

export type ImportSummary = { environments: string[]; scenarios: number; imported: ImportedEnvironment[] };

export const importMaxBytes = () => Number(process.env.ENVSTUDIO_IMPORT_MAX_BYTES ?? "") || undefined;

export async function importFiles(db: Db, sandbox: SandboxRunner, projectId: string, files: ImportFile[], opts: ReadImportOptions & { onExisting?: OnExisting } = {}): Promise<Result<ImportSummary, ImportError>> {
  const plan = await readImport(files, (source, className) => sandbox.analyze({ source, className }), { maxBytes: importMaxBytes(), ...opts });
  if (!plan.ok) return plan;
  try {
    return ok(await writeImportPlan(db, projectId, plan.value, opts.onExisting));
  } catch (error) {
    if (error instanceof ImportConflictError) {
      const source = files.find((f) => /metadata|\.py$/.test(f.name))?.name ?? files[0]?.name ?? "";
      return err({ file: source, record: error.slug, field: "env_id", message: error.message, existing: true });
    }
    throw error;
  }
}
