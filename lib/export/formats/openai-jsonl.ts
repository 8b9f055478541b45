/**
 * OpenAI chat fine-tuning JSONL: one line per trajectory that passed the SFT filter,
 * `{messages, tools, parallel_tool_calls}`. `parallel_tool_calls` is true exactly on rows where an
 * assistant message makes more than one call: false tells the fine-tuning job the model calls one
 * tool per turn, which such a row contradicts. Reasoning text is dropped (no field for it).
 */
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportInput, ExportSummary } from "../export.schema";
import { type ArrayWriter, openJsonl } from "../json-lines";
import { toOpenAiMessage } from "../messages";
import { createPinsManifest } from "../pins-manifest";
import type { Sink } from "../sink";

export function toOpenAiRow(messages: ChatMessage[], tools: unknown[]) {
  const parallel = messages.some((m) => m.role === "assistant" && (m.toolCalls?.length ?? 0) > 1);
  return { messages: messages.map(toOpenAiMessage), tools, parallel_tool_calls: parallel };
}

export async function writeOpenAiJsonl(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const tools = new Map(input.environments.map((e) => [e.envId, e.tools]));
  const files: Record<string, ArrayWriter> = {
    TRAIN: openJsonl(sink, "train.jsonl"),
    TEST: openJsonl(sink, "test.jsonl"),
  };
  const pins = createPinsManifest(input);
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    pins.add(s);
    for (const t of s.trajectories) {
      await files[s.split]?.push(toOpenAiRow(t.messages, tools.get(s.envId) ?? []));
    }
    scenarios += 1;
    await input.onProgress?.(scenarios);
  }
  let rows = 0;
  let bytes = await pins.write(sink);
  for (const f of Object.values(files)) {
    await f.close();
    rows += f.count;
    bytes += f.bytes;
  }
  return { files: [...sink.files], scenarios, rows, bytes };
}
