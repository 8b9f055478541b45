/**
 * verl agentic multi-turn RL (docs/exports.md): `data/{train,test}.parquet`, one row per scenario
 * for RLHFDataset (`prompt`, `reward_model.ground_truth`, `extra_info.tools_kwargs` and
 * `extra_info.tool_selection`); `tool_config.yaml` for `multi_turn.tool_config_path` with one
 * single-typed schema per tool; and `envstudio_verl.py`, the tools plus the `compute_score` reward
 * function. Init configs and checks are looked up by (env_id, task_id) in the shipped
 * `env_metadata.json` / `scenario_metadata.json`, so rows stay small.
 */
import { parquetWriteRows } from "hyparquet-writer";
// The Node entry by path: the browser entry (which bundlers pick for the lazily imported writers) has no fileWriter.
import { fileWriter } from "hyparquet-writer/src/node.js";
import {
  datasetMetadataOf,
  type ExportEnvironment,
  type ExportInput,
  type ExportScenario,
  type ExportSummary,
  type OpenAiTool,
} from "../export.schema";
import { yamlFlow } from "../config-source";
import { openJsonArray, writeKeyedObject } from "../json-lines";
import { DIFFICULTY_FLOAT_FIELDS, DIFFICULTY_INT_FIELDS, type ExportDifficulty } from "../difficulty";
import { bool, double, int64, list, root, str, struct } from "../parquet-schema";
import { type Sink, writeWhole } from "../sink";
import { ENV_METADATA_FILE, SCENARIO_METADATA_FILE, toEnvItem, toScenarioItem } from "./envscaler";
import { systemPrompt } from "./system-prompt";
import { nullableRequired, singleTypeTool } from "./single-type-schema";
import { VERL_TOOL_PY } from "./verl-tool-py";

/** One schema per tool name across the dataset; a name reused with another schema is reported. */
export function collectTools(envs: ExportEnvironment[]): { tools: OpenAiTool[]; conflicts: string[] } {
  const byName = new Map<string, OpenAiTool>();
  const conflicts: string[] = [];
  for (const env of envs) {
    for (const tool of env.tools) {
      const seen = byName.get(tool.function.name);
      if (!seen) byName.set(tool.function.name, tool);
      else if (JSON.stringify(seen) !== JSON.stringify(tool))
        conflicts.push(`${env.envId}.${tool.function.name}`);
    }
  }
  return {
    tools: [...byName.values()].sort((a, b) => a.function.name.localeCompare(b.function.name)),
    conflicts,
  };
}

const figureColumns = () => [...DIFFICULTY_INT_FIELDS.map(int64), ...DIFFICULTY_FLOAT_FIELDS.map(double)];

/** `extra_info.difficulty`: pooled figures and a per_model list (lib/export/difficulty.ts). */
const difficultyColumn = () =>
  struct("difficulty", [
    ...figureColumns(),
    list("per_model", (n) => struct(n, [str("model"), ...figureColumns()])),
  ]);

/** Parquet INT64 columns take BigInt values. */
function difficultyValue(d: ExportDifficulty) {
  const ints = <T extends Record<string, unknown>>(f: T) => ({
    ...f,
    ...Object.fromEntries(DIFFICULTY_INT_FIELDS.map((k) => [k, BigInt(f[k] as number)])),
  });
  return { ...ints(d), per_model: d.per_model.map(ints) };
}

export function verlSchema(toolNames: string[], withDifficulty = false, withNearMiss = false) {
  const message = (n: string) => struct(n, [str("role"), str("content")]);
  const toolKwargs = (n: string) => struct(n, [struct("create_kwargs", [str("env_id"), str("task_id")])]);
  return root([
    str("data_source"),
    str("agent_name"),
    list("prompt", message),
    str("ability"),
    struct("reward_model", [str("style"), str("ground_truth")]),
    struct("extra_info", [
      str("split"),
      int64("index"),
      str("env_id"),
      str("task_id"),
      bool("need_tools_kwargs"),
      list("tool_selection", str),
      // A parquet group needs at least one child: a dataset without tools has no tools_kwargs.
      ...(toolNames.length ? [struct("tools_kwargs", toolNames.map(toolKwargs))] : []),
      struct("interaction_kwargs", [str("name"), str("task")]),
      // Only for versions that froze difficulty: older versions keep their exact bytes.
      ...(withDifficulty ? [difficultyColumn()] : []),
      // JSON text: a struct needs one schema for every row, and the near-misses hold tool calls.
      ...(withNearMiss ? [str("near_miss_strength")] : []),
    ]),
  ]);
}

export function toVerlRow(s: ExportScenario, env: ExportEnvironment, index: number, withNearMiss = false) {
  const createKwargs = { create_kwargs: { env_id: s.envId, task_id: s.taskId } };
  return {
    data_source: `envstudio/${s.envId}`,
    agent_name: "tool_agent",
    prompt: [
      { role: "system", content: systemPrompt(env) },
      { role: "user", content: s.task },
    ],
    ability: "tool_use",
    // compute_score in envstudio_verl.py reads env_id/task_id; the checklist text is for people.
    reward_model: {
      style: "rule",
      ground_truth: JSON.stringify({ env_id: s.envId, task_id: s.taskId, checklist: s.checklist }),
    },
    extra_info: {
      split: s.split.toLowerCase(),
      index: BigInt(index),
      env_id: s.envId,
      task_id: s.taskId,
      need_tools_kwargs: true,
      // ToolAgentLoop exposes only these tools to this row (a dataset may mix environments).
      tool_selection: env.tools.map((t) => t.function.name),
      tools_kwargs: Object.fromEntries(env.tools.map((t) => [t.function.name, createKwargs])),
      interaction_kwargs: { name: "envstudio_task", task: s.task },
      ...(s.difficulty ? { difficulty: difficultyValue(s.difficulty) } : {}),
      ...(withNearMiss ? { near_miss_strength: JSON.stringify(s.nearMissStrength ?? null) } : {}),
    },
  };
}

/**
 * verl reads this file with OmegaConf (verl/tools/utils/tool_registry.py), so every string goes
 * through yamlFlow's OmegaConf quoting: a `${…}` in a description stays text.
 */
export function toolConfigYaml(tools: OpenAiTool[]): string {
  // BaseTool receives `config`: null_when_omitted lists the parameters that lost `required` with their null type.
  const config = (t: OpenAiTool) =>
    yamlFlow(
      { type: "native", ...(nullableRequired(t).length ? { null_when_omitted: nullableRequired(t) } : {}) },
      { omegaConf: true },
    );
  const entries = tools.map(
    (t) =>
      `  - class_name: "envstudio_verl.EnvMethodTool"\n    config: ${config(t)}\n    tool_schema: ${yamlFlow(singleTypeTool(t), { omegaConf: true, where: `tool ${t.function.name}` })}`,
  );
  return `# verl tool config: actor_rollout_ref.rollout.multi_turn.tool_config_path\ntools:\n${entries.join("\n")}\n`;
}

const COLUMNS = ["data_source", "agent_name", "prompt", "ability", "reward_model", "extra_info"].map(
  (name) => ({ name }),
);

export async function writeVerl(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const envs = new Map(input.environments.map((e) => [e.envId, e]));
  const { tools, conflicts } = collectTools(input.environments);
  const withNearMiss = input.dataset.hasNearMissStrength === true;
  const schema = verlSchema(
    tools.map((t) => t.function.name),
    input.withDifficulty,
    withNearMiss,
  );
  const scenarioFile = openJsonArray(sink, SCENARIO_METADATA_FILE);
  // Rows are routed to two parquet files as they stream; each writer flushes one row group at a time.
  const index = { TRAIN: 0, TEST: 0 };
  const writers = {
    TRAIN: fileWriter(sink.resolve("data/train.parquet")),
    TEST: fileWriter(sink.resolve("data/test.parquet")),
  };
  const channels = { TRAIN: createChannel(), TEST: createChannel() };
  // An async row source makes parquetWriteRows return a promise (typed as void | Promise).
  const done = (["TRAIN", "TEST"] as const).map((split) =>
    Promise.resolve(
      parquetWriteRows({
        writer: writers[split],
        rows: channels[split].iterate(),
        columns: COLUMNS,
        schema,
        rowGroupSize: 2000,
      }),
    ),
  );
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    const env = envs.get(s.envId);
    if (!env) continue;
    await scenarioFile.push(toScenarioItem(s, env.className));
    await channels[s.split].push(toVerlRow(s, env, index[s.split]++, withNearMiss));
    scenarios += 1;
    await input.onProgress?.(scenarios);
  }
  channels.TRAIN.end();
  channels.TEST.end();
  await Promise.all(done); // parquetWriteRows writes the footer and closes each file
  await scenarioFile.close();
  await writeKeyedObject(
    sink,
    ENV_METADATA_FILE,
    input.environments.map((e) => [e.envId, toEnvItem(e)]),
  );
  await writeWhole(sink, "tool_config.yaml", toolConfigYaml(tools));
  await writeWhole(sink, "envstudio_verl.py", VERL_TOOL_PY);
  await writeWhole(
    sink,
    "envstudio_export.json",
    JSON.stringify(
      { format: "verl", ...datasetMetadataOf(input.dataset), scenarios, tool_name_conflicts: conflicts },
      null,
      2,
    ) + "\n",
  );
  return { files: [...sink.files], scenarios, rows: scenarios, bytes: 0 };
}

/** An async queue with a small bound: the producer waits while the parquet writer catches up. */
function createChannel(limit = 4000) {
  const items: Record<string, unknown>[] = [];
  let ended = false;
  let wakeConsumer: (() => void) | null = null;
  let wakeProducer: (() => void) | null = null;
  return {
    async push(item: Record<string, unknown>) {
      while (items.length >= limit) await new Promise<void>((r) => (wakeProducer = r));
      items.push(item);
      wakeConsumer?.();
    },
    end() {
      ended = true;
      wakeConsumer?.();
    },
    async *iterate() {
      for (;;) {
        if (items.length) {
          yield items.shift() as Record<string, unknown>;
          wakeProducer?.();
        } else if (ended) return;
        else await new Promise<void>((r) => (wakeConsumer = r));
      }
    },
  };
}
