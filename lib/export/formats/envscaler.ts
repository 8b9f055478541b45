/**
 * EnvScaler's native pair (docs/exports.md): `env_metadata.json`, an object keyed by env_id (what
 * `env_items[env_id]` reads), and one scenario list per split, `scenario_metadata_{train,test}.json`
 * (EnvScaler's loaders ignore `split`, so a mixed file would train on test scenarios). Studio-only
 * data (domain, versions, gold calls, split) rides along in extra keys EnvScaler ignores, so
 * export → import is lossless. SFT-passing trajectories go to `sft_traj_{train,test}.json` for
 * EnvScaler's SFT scripts (envscaler-sft.ts); a split with no trajectory gets no such file (an empty
 * one would read as "trained on nothing"), and the manifest says why it is missing.
 */
import { difficultyField } from "../difficulty";
import {
  datasetMetadataOf,
  type ExportEnvironment,
  type ExportInput,
  type ExportScenario,
  type ExportSummary,
  nearMissEntry,
} from "../export.schema";
import { type ArrayWriter, openJsonArray, writeKeyedObject } from "../json-lines";
import { type Sink, writeWhole } from "../sink";
import { SFT_TRAJ_FILES, toEnvScalerSftRecord } from "./envscaler-sft";

export const ENV_METADATA_FILE = "env_metadata.json";
/** The verl export's lookup table (both splits; read only by envstudio_verl.py). */
export const SCENARIO_METADATA_FILE = "scenario_metadata.json";
export const SCENARIO_SPLIT_FILES = {
  TRAIN: "scenario_metadata_train.json",
  TEST: "scenario_metadata_test.json",
} as const;
export const MANIFEST_FILE = "envstudio_dataset.json";

/** Module head through `__init__` (EnvScaler's `env_class_def`): the lines before the second method. */
export function classDefinitionOf(source: string): string {
  const lines = source.split("\n");
  let defs = 0;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{4}def \w+\(/.test(lines[i] ?? "") && ++defs === 2)
      return lines.slice(0, i).join("\n").trimEnd() + "\n";
  }
  return source;
}

export function toEnvItem(env: ExportEnvironment) {
  return {
    env_id: env.envId,
    environment_summary: env.name,
    environment_introduction: env.description,
    state_space_definition: env.stateSchema,
    constraints_rules: env.rules,
    operation_list: env.operations,
    env_class_name: env.className,
    env_class_code: env.source,
    env_class_def: classDefinitionOf(env.source),
    env_structure: env.metadata.env_structure ?? {},
    tools: env.tools,
    envstudio: {
      domain: env.domain,
      version: env.version,
      source_hash: env.sourceHash,
      metadata: env.metadata,
    },
  };
}

export function toScenarioItem(s: ExportScenario, className: string) {
  return {
    env_id: s.envId,
    env_class_name: className,
    task_id: s.taskId,
    init_config: s.initialState,
    task: s.task,
    checklist: s.checklist,
    checklist_with_func: s.checks.map((c) => ({ check_item: c.checkItem, check_func: c.code })),
    gold_calls: s.goldCalls ?? null,
    split: s.split.toLowerCase(),
    envstudio: { validator_versions: s.checks.map((c) => c.validatorVersion) },
    ...difficultyField(s.difficulty),
    ...nearMissEntry(s),
  };
}

/** An array file opened at its first element: nothing is written while nothing is pushed. */
function openJsonArrayOnFirstPush(sink: Sink, relativePath: string): ArrayWriter {
  let file: ArrayWriter | null = null;
  return {
    get count() {
      return file?.count ?? 0;
    },
    get bytes() {
      return file?.bytes ?? 0;
    },
    push: (value) => (file ??= openJsonArray(sink, relativePath)).push(value),
    close: () => file?.close() ?? Promise.resolve(),
  };
}

export async function writeEnvScaler(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const envs = new Map(input.environments.map((e) => [e.envId, e]));
  let bytes = await writeKeyedObject(
    sink,
    ENV_METADATA_FILE,
    input.environments.map((e) => [e.envId, toEnvItem(e)]),
  );
  const scenarios = {
    TRAIN: openJsonArray(sink, SCENARIO_SPLIT_FILES.TRAIN),
    TEST: openJsonArray(sink, SCENARIO_SPLIT_FILES.TEST),
  };
  const trajectories = {
    TRAIN: openJsonArrayOnFirstPush(sink, SFT_TRAJ_FILES.TRAIN),
    TEST: openJsonArrayOnFirstPush(sink, SFT_TRAJ_FILES.TEST),
  };
  let count = 0;
  let skipped = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    const env = envs.get(s.envId);
    await scenarios[s.split].push(toScenarioItem(s, env?.className ?? ""));
    for (const t of s.trajectories) {
      const record = env && toEnvScalerSftRecord(t, s, env);
      if (record) await trajectories[s.split].push(record);
      else skipped += 1;
    }
    // Counted apart from the call: `onProgress?.(++count)` skips the increment when there is no callback.
    count += 1;
    await input.onProgress?.(count);
  }
  for (const f of [...Object.values(scenarios), ...Object.values(trajectories)]) {
    await f.close();
    bytes += f.bytes;
  }
  const sftCount = trajectories.TRAIN.count + trajectories.TEST.count;
  const counts = {
    scenarios: { train: scenarios.TRAIN.count, test: scenarios.TEST.count },
    sft_trajectories: {
      train: trajectories.TRAIN.count,
      test: trajectories.TEST.count,
      skipped,
      ...(sftCount === 0
        ? {
            note: "No SFT trajectories on the pinned versions: no sft_traj files were written; run rollouts to add them.",
          }
        : {}),
    },
  };
  bytes += await writeWhole(
    sink,
    MANIFEST_FILE,
    JSON.stringify(
      { format: "envscaler", ...datasetMetadataOf(input.dataset), scenarios: count, files: counts },
      null,
      2,
    ) + "\n",
  );
  return { files: [...sink.files], scenarios: count, rows: count, bytes };
}
