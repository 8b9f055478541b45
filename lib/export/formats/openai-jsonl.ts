/**
 * OpenAI chat fine-tuning JSONL: one line per trajectory that passed the SFT filter,
 * `{messages, tools, parallel_tool_calls}`. `parallel_tool_calls` is true exactly on rows where an
 * assistant message makes more than one call: false tells the fine-tuning job the model calls one
 * tool per turn, which such a row contradicts. Reasoning text is dropped (no field for it).
 */
import type { ExportInput, ExportSummary } from "../export.schema";
import { type ArrayWriter, openJsonl } from "../json-lines";
import { contentString, normalizeToolCalls, parseMessages } from "../messages";
import type { Sink } from "../sink";

export function toOpenAiRow(rawMessages: unknown[], tools: unknown[]) {
  const parsed = parseMessages(rawMessages);
  if (!parsed) return null;
  const { messages, calls } = normalizeToolCalls(parsed);
  const out = messages.map((m) => {
    if (m.role === "assistant") {
      const toolCalls = calls.get(m);
      return toolCalls ? { role: "assistant", content: m.content ?? null, tool_calls: toolCalls } : { role: "assistant", content: m.content ?? "" };
    }
    if (m.role === "tool") return { role: "tool", tool_call_id: m.tool_call_id, content: contentString(m.content) };
    return { role: m.role, content: m.content };
  });
  const parallel = [...calls.values()].some((c) => c.length > 1);
  return { messages: out, tools, parallel_tool_calls: parallel };
}

export async function writeOpenAiJsonl(input: ExportInput, sink: Sink): Promise<ExportSummary> {
  const tools = new Map(input.environments.map((e) => [e.envId, e.tools]));
  const files: Record<string, ArrayWriter> = { TRAIN: openJsonl(sink, "train.jsonl"), TEST: openJsonl(sink, "test.jsonl") };
  let scenarios = 0;
  for await (const s of input.scenarios) {
    input.signal?.throwIfAborted();
    for (const t of s.trajectories) {
      const row = toOpenAiRow(t.messages, tools.get(s.envId) ?? []);
      if (row) await files[s.split]?.push(row);
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
