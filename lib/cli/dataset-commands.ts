/**
 * `envstudio export | import | serve | dataset`: thin wrappers over lib/datasets, lib/export,
 * lib/import and lib/envserver. Each parses flags, calls one domain function, prints a summary.
 */
import { createWriteStream, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Db } from "../db";
import { FORMAT_ALIASES } from "../export/export.schema";
import { formatImportError } from "../import/import.schema";
import { UsageError, flags, requiredString } from "./cli-flags";
import { openProject } from "./open-project";
import type { SandboxRunner } from "../sandbox";
import type { CliIo } from "./main";


const int = (value: string | boolean | undefined, name: string) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number (got ${String(value)})`);
  return n;
};

export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = flags(argv, ["dataset", "version", "format", "out"]);
  const format = FORMAT_ALIASES[requiredString(values, "format")];
  if (!format) throw new UsageError(`--format must be one of ${Object.keys(FORMAT_ALIASES).join(", ")}`);
  const out = requiredString(values, "out");
  const { db, projectId, close } = await openProject();
  try {
    const [{ getDatasetVersionOrThrow }, { writeDatasetExport }, { tarDirectory }] = await Promise.all([import("../datasets/server/find-datasets"), import("../export/server/run-export"), import("../export/tar")]);
    const { dataset, version } = await getDatasetVersionOrThrow(db, projectId, requiredString(values, "dataset"), int(values.version, "version"));
    const asTar = out.endsWith(".tar");
    const dir = asTar ? `${out}.tmp` : out;
    let last = 0;
    const summary = await writeDatasetExport(db, version.id, format, dir, (n) => {
      if (n - last >= 1000) io.err(`  ${(last = n)} scenarios…`);
    });
    if (asTar) {
      await pipeline(tarDirectory(dir, `${dataset.name}-v${version.version}-${format.toLowerCase()}`), createWriteStream(out));
      (await import("node:fs")).rmSync(dir, { recursive: true, force: true });
    }
    io.out(`exported ${dataset.name} v${version.version} as ${format}: ${summary.scenarios} scenarios, ${summary.rows} rows, ${summary.files.length} files, ${summary.bytes} bytes → ${out}`);
    return 0;
  } finally {
    await close();
  }
}

function collectFiles(inputs: string[]): { name: string; text: string }[] {
  return inputs.flatMap((input) => {
    if (!existsSync(input)) throw new UsageError(`not found: ${input}`);
    if (!statSync(input).isDirectory()) return [{ name: input, text: readFileSync(input, "utf8") }];
    return readdirSync(input).filter((f) => /\.(json|py)$/.test(f)).sort().map((f) => ({ name: path.join(input, f), text: readFileSync(path.join(input, f), "utf8") }));
  });
}

export async function runImportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = flags(argv, ["class", "env-id"]);
  if (positionals.length === 0) throw new UsageError("usage: envstudio import FILE|FOLDER …");
  const files = collectFiles(positionals);
  const [{ createSandboxRunner }, { importFiles }] = await Promise.all([import("../sandbox"), import("../import/server/import-files")]);
  const sandbox = createSandboxRunner();
  const { db, projectId, close } = await openProject();
  try {
    // No queue: the CLI holds a sandbox, so it proves the imported scenarios itself, right away.
    const result = await importFiles(db, { sandbox, send: () => Promise.resolve(null) }, projectId, files, { className: values.class as string | undefined, envId: values["env-id"] as string | undefined });
    if (!result.ok) {
      io.err(`envstudio import: ${formatImportError(result.error)} (nothing was written)`);
      return 1;
    }
    const { environments, scenarios, proofRunId } = result.value;
    io.out(`imported ${environments.length} environments (${environments.join(", ")}) and ${scenarios} scenarios, all waiting for review`);
    if (proofRunId) io.out(await proveImport(db, sandbox, projectId, proofRunId, environments));
    return 0;
  } finally {
    await Promise.all([close(), sandbox.close()]);
  }
}

async function proveImport(db: Db, sandbox: SandboxRunner, projectId: string, runId: string, slugs: string[]): Promise<string> {
  const [{ executeProofRun }, { createRunLlmFactory }] = await Promise.all([import("../scenarios/server/proof-run"), import("../runs/server/run-llm")]);
  await executeProofRun(db, runId, { sandbox, llmFor: createRunLlmFactory(db) }, { finalAttempt: true });
  const rows = await db.scenario.groupBy({ by: ["proofStatus"], where: { environment: { projectId, slug: { in: slugs } } }, _count: true });
  const count = (status: string) => rows.find((r) => r.proofStatus === status)?._count ?? 0;
  return `proved in the sandbox (run ${runId}): ${count("VERIFIED")} verified, ${count("FAILED")} failed (see their reasons in the review queue)`;
}
