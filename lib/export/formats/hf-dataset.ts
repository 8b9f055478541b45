/**
 * Hugging Face dataset folder: `data/{train,test}.jsonl` (scenarios), `data/environments.jsonl`
 * (class code and tools, a second config) and a README.md dataset card whose YAML header declares
 * the configs, features and split sizes the Hub viewer and `load_dataset` read. Free-form JSON
 * (init_config, tools) is stored as JSON strings: Arrow needs one schema for every row, and
 * initial states differ per environment.
 */
import type { ExportEnvironment, ExportInput, ExportScenario, ExportSummary } from "../export.schema";
import { difficultyField } from "../difficulty";
import { type ArrayWriter, openJsonl } from "../json-lines";
import { type Sink, writeWhole } from "../sink";
import { datasetCard } from "./hf-card";
import { systemPrompt } from "./system-prompt";

export function toHfRow(s: ExportScenario, env: ExportEnvironment | undefined) {
  return {
    env_id: s.envId,
    task_id: s.taskId,
    env_class_name: env?.className ?? "",
    prompt: [
      { role: "system", content: env ? systemPrompt(env) : "" },
      { role: "user", content: s.task },
    ],
    task: s.task,
    init_config: JSON.stringify(s.initialState),
    checklist: s.checklist,
    checklist_with_func: s.checks.map((c) => ({ check_item: c.checkItem, check_func: c.code })),
    split: s.split.toLowerCase(),
    ...difficultyField(s.difficulty),
    // A JSON string like init_config: Arrow needs one type per column, and `passed` holds tool calls.
    ...(s.nearMissStrength === undefined ? {} : { near_miss_strength: JSON.stringify(s.nearMissStrength) }),
  };
}

export function toHfEnvironmentRow(env: ExportEnvironment) {
  return {
    env_id: env.envId,
    environment_summary: env.name,
    environment_introduction: env.description,
    domain: env.domain,
    env_class_name: env.className,
    env_class_code: env.source,
    source_hash: env.sourceHash,
    version: env.version,
    tools: JSON.stringify(env.tools),
    constraints_rules: JSON.stringify(env.rules),
    state_space_definition: JSON.stringify(env.stateSchema),
  };
}

export async function writeHfDataset(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const envs = new Map(input.environments.map((e) => [e.envId, e]));
  const envFile = openJsonl(sink, "data/environments.jsonl");
  for (const env of input.environments) await envFile.push(toHfEnvironmentRow(env));
  await envFile.close();
  const files: Record<string, ArrayWriter> = {
    TRAIN: openJsonl(sink, "data/train.jsonl"),
    TEST: openJsonl(sink, "data/test.jsonl"),
  };
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    await files[s.split]?.push(toHfRow(s, envs.get(s.envId)));
    scenarios += 1;
    await input.onProgress?.(scenarios);
  }
  let bytes = envFile.bytes;
  for (const f of Object.values(files)) {
    await f.close();
    bytes += f.bytes;
  }
  const counts = {
    train: files.TRAIN?.count ?? 0,
    test: files.TEST?.count ?? 0,
    environments: envFile.count,
  };
  bytes += await writeWhole(sink, "README.md", datasetCard(input, counts));
  return { files: [...sink.files], scenarios, rows: counts.train + counts.test, bytes };
}
