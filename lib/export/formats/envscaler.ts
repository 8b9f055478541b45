/**
 * EnvScaler's native pair (envscaler-spec §8): `env_metadata.json`, an object keyed by env_id
 * (what `env_items[env_id]` reads), and `scenario_metadata.json`, a list of scenarios as the RL
 * loaders index them. Studio-only data (domain, versions, gold calls, split) rides along in extra
 * keys EnvScaler ignores, so export → import is lossless.
 */
import type { ExportEnvironment, ExportInput, ExportScenario, ExportSummary } from "../export.schema";
import { openJsonArray, writeKeyedObject } from "../json-lines";
import { type Sink, writeWhole } from "../sink";

export const ENV_METADATA_FILE = "env_metadata.json";
export const SCENARIO_METADATA_FILE = "scenario_metadata.json";
export const MANIFEST_FILE = "envstudio_dataset.json";

/** Module head through `__init__` (EnvScaler's `env_class_def`): the lines before the second method. */
export function classDefinitionOf(source: string): string {
  const lines = source.split("\n");
  let defs = 0;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{4}def \w+\(/.test(lines[i] ?? "") && ++defs === 2) return lines.slice(0, i).join("\n").trimEnd() + "\n";
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
    envstudio: { domain: env.domain, version: env.version, source_hash: env.sourceHash, metadata: env.metadata },
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
  };
}

export async function writeEnvScaler(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const classes = new Map(input.environments.map((e) => [e.envId, e.className]));
  let bytes = await writeKeyedObject(sink, ENV_METADATA_FILE, input.environments.map((e) => [e.envId, toEnvItem(e)]));
  const scenarios = openJsonArray(sink, SCENARIO_METADATA_FILE);
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    await scenarios.push(toScenarioItem(s, classes.get(s.envId) ?? ""));
    await input.onProgress?.(scenarios.count);
  }
  await scenarios.close();
  bytes += scenarios.bytes;
  bytes += await writeWhole(sink, MANIFEST_FILE, JSON.stringify({ format: "envscaler", ...input.dataset, scenarios: scenarios.count }, null, 2) + "\n");
  return { files: [...sink.files], scenarios: scenarios.count, rows: scenarios.count, bytes };
}
