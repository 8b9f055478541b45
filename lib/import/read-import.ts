/**
 * The public entry of the pure importer: named files in, an ImportPlan (or the first located
 * error) out. Two kinds of input:
 * - EnvScaler JSON: an env metadata file (`*env*metadata*.json` or `env_metadata.json`) and one or
 *   more scenario files (any other `*.json` list, e.g. `rl_scenario_metadata.json`; an EnvScaler
 *   export's `sft_traj_*.json` trajectory files are not scenarios and are passed over);
 * - a Python environment: `environment.py` (or any single `.py`), `scenarios.json`, optional `meta.json`.
 */
import path from "node:path";
import { type Result, err, ok } from "../core/result";
import { type AnalyzeFn, buildImportPlan } from "./build-plan";
import type { ImportEnvItem, ImportError, ImportPlan, ImportScenario } from "./import.schema";
import { topLevelLines } from "./json-locate";
import {
  DEFAULT_MAX_IMPORT_BYTES,
  type ImportFile,
  checkSize,
  readEnvMetadata,
  readPythonEnvironment,
  readScenarios,
} from "./read-files";

export type ReadImportOptions = { maxBytes?: number; className?: string; envId?: string };

const base = (f: ImportFile) => path.basename(f.name);
const isEnvMetadata = (f: ImportFile) =>
  /env.*metadata.*\.json$/i.test(base(f)) && !/scenario/i.test(base(f));
const MANIFESTS = new Set([
  "envstudio_dataset.json",
  "envstudio_export.json",
  "meta.json",
  "tools.json",
  "dataset_info.json",
  "sft_traj_train.json",
  "sft_traj_test.json",
]);

function readScenarioFiles(
  files: ImportFile[],
): Result<{ scenarios: ImportScenario[]; lines: number[]; name: string }, ImportError> {
  const scenarios: ImportScenario[] = [];
  const lines: number[] = [];
  for (const file of files) {
    const read = readScenarios(file);
    if (!read.ok) return read;
    scenarios.push(...read.value);
    lines.push(...topLevelLines(file.text));
  }
  return ok({ scenarios, lines, name: files.map((f) => f.name).join(", ") });
}

function pythonEnv(files: ImportFile[], opts: ReadImportOptions): Result<ImportEnvItem, ImportError> | null {
  const py = files.filter((f) => f.name.endsWith(".py"));
  if (py.length === 0) return null;
  if (py.length > 1)
    return err({ file: py.map((f) => f.name).join(", "), message: "import one environment.py at a time" });
  const source = py[0] as ImportFile;
  const meta = files.find((f) => base(f) === "meta.json") ?? null;
  const folder =
    opts.envId ??
    (path.dirname(source.name) !== "."
      ? path.basename(path.dirname(source.name))
      : path.basename(source.name, ".py"));
  return readPythonEnvironment(folder, source, meta, opts.className ?? null);
}

export async function readImport(
  files: ImportFile[],
  analyze: AnalyzeFn,
  opts: ReadImportOptions = {},
): Promise<Result<ImportPlan, ImportError>> {
  if (files.length === 0) return err({ file: "(none)", message: "no files to import" });
  for (const file of files) {
    const tooBig = checkSize(file, opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
    if (tooBig) return err(tooBig);
  }
  const python = pythonEnv(files, opts);
  const envFiles = files.filter(isEnvMetadata);
  let envs: ImportEnvItem[];
  let envFile: string;
  let envLines: number[] | undefined;
  if (python) {
    if (!python.ok) return python;
    envs = [python.value];
    envFile = files.find((f) => f.name.endsWith(".py"))?.name ?? "";
  } else {
    if (envFiles.length !== 1)
      return err({
        file: files.map((f) => f.name).join(", "),
        message:
          "expected exactly one environment metadata file (e.g. env_metadata.json or 191_env_metadata.json)",
      });
    const read = readEnvMetadata(envFiles[0] as ImportFile);
    if (!read.ok) return read;
    envs = read.value;
    envFile = (envFiles[0] as ImportFile).name;
    envLines = topLevelLines((envFiles[0] as ImportFile).text);
  }
  const scenarioFiles = files.filter(
    (f) => f.name.endsWith(".json") && !isEnvMetadata(f) && !MANIFESTS.has(base(f)),
  );
  const scen = readScenarioFiles(scenarioFiles);
  if (!scen.ok) return scen;
  // A Python folder's scenarios may omit env_id: they belong to that one environment.
  const scenarios = python
    ? scen.value.scenarios.map((s) => ({ ...s, env_id: envs[0]?.env_id ?? s.env_id }))
    : scen.value.scenarios;
  return buildImportPlan(
    { envFile, scenarioFile: scen.value.name, envs, scenarios, envLines, scenarioLines: scen.value.lines },
    analyze,
  );
}
