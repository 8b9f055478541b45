/**
 * LlamaFactory ShareGPT with tools (docs/exports.md): `{conversations, system, tools}` rows where
 * `tools` is a JSON string of bare function schemas, plus the `dataset_info.json` entries.
 * LlamaFactory requires human/observation at even indexes (0, 2, …) and gpt/function_call at odd
 * ones; trajectories that cannot be laid out that way are skipped rather than emitted broken.
 * Parallel calls follow LlamaFactory's own convention (hiyouga/LLaMA-Factory 7e09152,
 * src/llamafactory/data/converter.py and formatter.py): one function_call whose value is a JSON
 * list of {name, arguments} with arguments as objects (FunctionFormatter json.dumps them), and one
 * observation holding the results joined by "\n</tool_response>\n<tool_response>\n", which the
 * templates' `<tool_response>\n{{content}}\n</tool_response>` slot turns into one block per result.
 */
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportInput, ExportSummary, OpenAiTool } from "../export.schema";
import { type ArrayWriter, openJsonArray } from "../json-lines";
import { createPinsManifest } from "../pins-manifest";
import { type Sink, writeWhole } from "../sink";

type Turn = { from: "human" | "gpt" | "function_call" | "observation"; value: string };

export const bareTools = (tools: OpenAiTool[]) =>
  JSON.stringify(
    tools.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      parameters: t.function.parameters,
    })),
  );

export const TOOL_RESPONSE_SEPARATOR = "\n</tool_response>\n<tool_response>\n";

const withThinking = (reasoning: string | null | undefined, text: string) =>
  reasoning ? `<think>\n${reasoning}\n</think>\n\n${text}` : text;
const isPrompt = (t: Turn) => t.from === "human" || t.from === "observation";

function toTurns(messages: ChatMessage[]): { system: string; turns: Turn[] } {
  let system = "";
  const turns: Turn[] = [];
  const observations: string[] = [];
  const flush = () => {
    if (observations.length)
      turns.push({ from: "observation", value: observations.join(TOOL_RESPONSE_SEPARATOR) });
    observations.length = 0;
  };
  for (const m of messages) {
    if (m.role === "tool") {
      observations.push(m.content);
      continue;
    }
    flush();
    if (m.role === "system") system = system ? `${system}\n\n${m.content}` : m.content;
    else if (m.role === "user") turns.push({ from: "human", value: m.content });
    else if (m.toolCalls?.length) {
      const payload = m.toolCalls.map((c) => ({
        name: c.name,
        arguments: JSON.parse(c.arguments) as unknown,
      }));
      turns.push({
        from: "function_call",
        value: withThinking(m.reasoning, JSON.stringify(payload.length === 1 ? payload[0] : payload)),
      });
    } else turns.push({ from: "gpt", value: withThinking(m.reasoning, m.content ?? "") });
  }
  flush();
  return { system, turns };
}

/** Merges consecutive human turns, drops a trailing prompt, and checks the alternation. */
export function layoutTurns(turns: Turn[]): Turn[] | null {
  const merged: Turn[] = [];
  for (const t of turns) {
    const last = merged[merged.length - 1];
    if (last && last.from === "human" && t.from === "human") last.value += `\n\n${t.value}`;
    else merged.push({ ...t });
  }
  while (merged.length && isPrompt(merged[merged.length - 1] as Turn)) merged.pop();
  if (merged.length === 0) return null;
  return merged.every((t, i) => isPrompt(t) === (i % 2 === 0)) ? merged : null;
}

export function toShareGptRow(messages: ChatMessage[], tools: OpenAiTool[]) {
  const converted = (() => {
    try {
      return toTurns(messages);
    } catch {
      return null; // tool-call arguments that are not JSON
    }
  })();
  const conversations = converted && layoutTurns(converted.turns);
  return conversations && converted
    ? { conversations, system: converted.system, tools: bareTools(tools) }
    : null;
}

export function datasetInfo(prefix: string) {
  const entry = (split: string) => ({
    file_name: `${prefix}_${split}.json`,
    formatting: "sharegpt",
    columns: { messages: "conversations", system: "system", tools: "tools" },
  });
  return { [`${prefix}_train`]: entry("train"), [`${prefix}_test`]: entry("test") };
}

export async function writeLlamaFactory(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const prefix = `envstudio_${input.dataset.name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  const tools = new Map(input.environments.map((e) => [e.envId, e.tools]));
  const files: Record<string, ArrayWriter> = {
    TRAIN: openJsonArray(sink, `${prefix}_train.json`),
    TEST: openJsonArray(sink, `${prefix}_test.json`),
  };
  const pins = createPinsManifest(input);
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    pins.add(s);
    for (const t of s.trajectories) {
      const row = toShareGptRow(t.messages, tools.get(s.envId) ?? []);
      if (row) await files[s.split]?.push(row);
    }
    scenarios += 1;
    await input.onProgress?.(scenarios);
  }
  let rows = 0;
  let bytes = await writeWhole(
    sink,
    "dataset_info.json",
    JSON.stringify(datasetInfo(prefix), null, 2) + "\n",
  );
  bytes += await pins.write(sink);
  for (const f of Object.values(files)) {
    await f.close();
    rows += f.count;
    bytes += f.bytes;
  }
  return { files: [...sink.files], scenarios, rows, bytes };
}
