import "server-only";
/**
 * Import domain function: files → located error, or everything written in one transaction and a
 * proof run for every imported scenario. Imports earn their trust here: they land in review with
 * their proof pending, and only this studio's sandbox can prove them (a hash or status inside the
 * files counts for nothing), so nothing imported enters a dataset as verified before it is proven.
 */
import { type Result, err, ok } from "@/lib/core/result";
import type { Db } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import type { SandboxRunner } from "@/lib/sandbox";
import { findStaleScenarios } from "@/lib/scenarios/server/mark-proofs-stale";
import { enqueueProofRun } from "@/lib/scenarios/server/proof-run";
import type { ImportError, ImportWarning, ImportedEnvironment, OnExisting } from "../import.schema";
import type { ImportFile } from "../read-files";
import { type ReadImportOptions, readImport } from "../read-import";
import { ImportConflictError, writeImportPlan } from "./write-import";
import { readEnv } from "../../env";

export type ImportDeps = { sandbox: Pick<SandboxRunner, "analyze">; send: JobSender };
/**
 * `imported`: where each environment landed (its slug, and whether it became a new version of an
 * existing one); `proofRunId`: the PROOF run that proves the imported scenarios (null when none);
 * `warnings`: where the import did not follow the files (their tool schemas, when the code says
 * otherwise), each located.
 */
export type ImportSummary = {
  environments: string[];
  scenarios: number;
  imported: ImportedEnvironment[];
  proofRunId: string | null;
  warnings: ImportWarning[];
};

export const importMaxBytes = () => readEnv("ENVSTUDIO_IMPORT_MAX_BYTES");

export async function importFiles(
  db: Db,
  deps: ImportDeps,
  projectId: string,
  files: ImportFile[],
  opts: ReadImportOptions & { onExisting?: OnExisting } = {},
): Promise<Result<ImportSummary, ImportError>> {
  const plan = await readImport(files, (source, className) => deps.sandbox.analyze({ source, className }), {
    maxBytes: importMaxBytes(),
    ...opts,
  });
  if (!plan.ok) return plan;
  let written;
  try {
    written = await writeImportPlan(db, projectId, plan.value, opts.onExisting);
  } catch (error) {
    if (error instanceof ImportConflictError) {
      const source = files.find((f) => /metadata|\.py$/.test(f.name))?.name ?? files[0]?.name ?? "";
      return err({
        file: source,
        record: error.slug,
        field: "env_id",
        message: error.message,
        existing: true,
      });
    }
    throw error;
  }
  // Gold comes from the files' gold calls only: an import never spends LLM tokens unasked. A
  // scenario without gold fails its proof with that reason and waits for a reviewer's proof run.
  const scenarioIds = [...written.scenarioIds, ...(await reprovedByNewVersions(db, written.imported))];
  const proof = scenarioIds.length
    ? await enqueueProofRun(db, deps.send, { projectId, scenarioIds, reason: "imported" })
    : null;
  return ok({
    environments: written.environments,
    scenarios: written.scenarioIds.length,
    imported: written.imported,
    proofRunId: proof?.id ?? null,
    warnings: plan.value.warnings,
  });
}

/**
 * Imported as a new version, an environment's existing scenarios were proven against older code:
 * like an edit, their proofs are re-run (writeImportPlan marked them STALE in its transaction).
 */
async function reprovedByNewVersions(db: Db, imported: ImportedEnvironment[]): Promise<string[]> {
  const stale: string[] = [];
  for (const env of imported.filter((i) => i.asNewVersion))
    stale.push(...(await findStaleScenarios(db, { environmentId: env.id })));
  return stale;
}
