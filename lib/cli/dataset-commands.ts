/**
 * `envstudio export | import | serve | dataset`: thin wrappers over lib/datasets, lib/export,
 * lib/import and lib/envserver. Each parses flags, calls one domain function, prints a summary.
 */
import { createWriteStream, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Db } from "../db";
import { FORMAT_ALIASES } from "../export/formats/registry";
import { type OnExisting, formatImportError } from "../import/import.schema";
import type { SandboxRunner } from "../sandbox";
import {
  type FlagSpec,
  UsageError,
  WHOLE_NUMBER,
  choiceFlag,
  numberFlag,
  parseFlags,
  requiredString,
  stringFlag,
} from "./cli-flags";
import type { CliIo } from "./cli-io";
import { openProject } from "./open-project";

/** `--on-existing`: what to do when an imported environment's id is already in the project. */
const ON_EXISTING_FLAG = {
  fail: "refuse",
  "new-name": "rename",
  "new-version": "new-version",
} as const satisfies Record<string, OnExisting>;

export const EXPORT_FLAGS = { strings: ["dataset", "version", "format", "out"] } as const satisfies FlagSpec;
export const IMPORT_FLAGS = {
  strings: ["class", "env-id", "on-existing"],
  positionals: true,
} as const satisfies FlagSpec;

export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, EXPORT_FLAGS);
  const format = FORMAT_ALIASES[requiredString(values, "format")];
  if (!format) throw new UsageError(`--format must be one of ${Object.keys(FORMAT_ALIASES).join(", ")}`);
  const out = requiredString(values, "out");
  const { db, projectId, close } = await openProject();
  try {
    const [{ getDatasetVersionOrThrow }, { writeDatasetExport }, { tarDirectory }] = await Promise.all([
      import("../datasets/server/find-datasets"),
      import("../export/server/run-export"),
      import("../export/tar"),
    ]);
    const { dataset, version } = await getDatasetVersionOrThrow(
      db,
      projectId,
      requiredString(values, "dataset"),
      numberFlag(values, "version", WHOLE_NUMBER),
    );
    const asTar = out.endsWith(".tar");
    const dir = asTar ? `${out}.tmp` : out;
    let last = 0;
    const summary = await writeDatasetExport(db, version.id, format, dir, (n) => {
      if (n - last >= 1000) io.err(`  ${(last = n)} scenarios…`);
    });
    if (asTar) {
      await pipeline(
        tarDirectory(dir, `${dataset.name}-v${version.version}-${format.toLowerCase()}`),
        createWriteStream(out),
      );
      (await import("node:fs")).rmSync(dir, { recursive: true, force: true });
    }
    io.out(
      `exported ${dataset.name} v${version.version} as ${format}: ${summary.scenarios} scenarios, ${summary.rows} rows, ${summary.files.length} files, ${summary.bytes} bytes → ${out}`,
    );
    return 0;
  } finally {
    await close();
  }
}

function collectFiles(inputs: string[]): { name: string; text: string }[] {
  return inputs.flatMap((input) => {
    if (!existsSync(input)) throw new UsageError(`not found: ${input}`);
    if (!statSync(input).isDirectory()) return [{ name: input, text: readFileSync(input, "utf8") }];
    return readdirSync(input)
      .filter((f) => /\.(json|py)$/.test(f))
      .sort()
      .map((f) => ({ name: path.join(input, f), text: readFileSync(path.join(input, f), "utf8") }));
  });
}

export async function runImportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, IMPORT_FLAGS);
  if (positionals.length === 0) throw new UsageError("missing FILE or FOLDER");
  const onExisting =
    ON_EXISTING_FLAG[
      choiceFlag(values, "on-existing", Object.keys(ON_EXISTING_FLAG) as (keyof typeof ON_EXISTING_FLAG)[]) ??
        "fail"
    ];
  const files = collectFiles(positionals);
  const [{ createSandboxRunner }, { importFiles }] = await Promise.all([
    import("../sandbox"),
    import("../import/server/import-files"),
  ]);
  const sandbox = createSandboxRunner();
  const { db, projectId, close } = await openProject();
  try {
    // No queue: the CLI holds a sandbox, so it proves the imported scenarios itself, right away.
    const result = await importFiles(db, { sandbox, send: () => Promise.resolve(null) }, projectId, files, {
      className: stringFlag(values, "class"),
      envId: stringFlag(values, "env-id"),
      onExisting,
    });
    if (!result.ok) {
      const hint = result.error.existing
        ? "; rerun with --on-existing new-name or --on-existing new-version"
        : "";
      io.err(`envstudio import: ${formatImportError(result.error)} (nothing was written${hint})`);
      return 1;
    }
    const { environments, imported, scenarios, proofRunId } = result.value;
    const landed = imported.map((i) => (i.asNewVersion ? `${i.slug} as new version ${i.version}` : i.slug));
    io.out(
      `imported ${imported.length} environments (${landed.join(", ")}) and ${scenarios} scenarios, all waiting for review`,
    );
    if (proofRunId) io.out(await proveImport(db, sandbox, projectId, proofRunId, environments));
    return 0;
  } finally {
    await Promise.all([close(), sandbox.close()]);
  }
}

async function proveImport(
  db: Db,
  sandbox: SandboxRunner,
  projectId: string,
  runId: string,
  slugs: string[],
): Promise<string> {
  const [{ executeProofRun }, { createRunLlmFactory }] = await Promise.all([
    import("../scenarios/server/proof-run"),
    import("../runs/server/run-llm"),
  ]);
  await executeProofRun(db, runId, { sandbox, llmFor: createRunLlmFactory(db) }, { finalAttempt: true });
  const rows = await db.scenario.groupBy({
    by: ["proofStatus"],
    where: { environment: { projectId, slug: { in: slugs } } },
    _count: true,
  });
  const count = (status: string) => rows.find((r) => r.proofStatus === status)?._count ?? 0;
  return `proved in the sandbox (run ${runId}): ${count("VERIFIED")} verified, ${count("FAILED")} failed (see their reasons in the review queue)`;
}
