/**
 * OpenAI chat fine-tuning JSONL: one line per trajectory that passed the SFT filter,
 * `{messages, tools, parallel_tool_calls: false}` (EnvScaler agents call one tool per step).
 * Reasoning text is dropped: the fine-tuning format has no field for it.
 */
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportInput, ExportSummary } from "../export.schema";
import { type ArrayWriter, openJsonl } from "../json-lines";
import { toOpenAiMessage } from "../messages";
import type { Sink } from "../sink";

export function toOpenAiRow(messages: ChatMessage[], tools: unknown[]) {
  return { messages: messages.map(toOpenAiMessage), tools, parallel_tool_calls: false };
}

export async function writeOpenAiJsonl(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const tools = new Map(input.environments.map((e) => [e.envId, e.tools]));
  const files: Record<string, ArrayWriter> = { TRAIN: openJsonl(sink, "train.jsonl"), TEST: openJsonl(sink, "test.jsonl") };
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    for (const t of s.trajectories) {
      await files[s.split]?.push(toOpenAiRow(t.messages, tools.get(s.envId) ?? []));
    }
    scenarios += 1;
    await input.onProgress?.(scenarios);
  }
  let rows = 0;
  let bytes = 0;
  for (const f of Object.values(files)) {
    await f.close();
    rows += f.count;
    bytes += f.bytes;
  }
  return { files: [...sink.files], scenarios, rows, bytes };
}
