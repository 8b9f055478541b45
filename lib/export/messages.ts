/**
 * Trajectory messages as the exporters read them: OpenAI chat messages (the rollout format).
 * Parsed leniently (unknown keys dropped); tool-call arguments normalised to a JSON string, as
 * OpenAI's fine-tuning files require.
 */
import { z } from "zod";

const ToolCallSchema = z.object({
  id: z.string().optional(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default("{}") }),
});

export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable().default(null),
    reasoning_content: z.string().nullable().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string().optional(), name: z.string().optional(), content: z.unknown() }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export type NormalizedToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

export const argumentsString = (args: string | Record<string, unknown>) => (typeof args === "string" ? args : JSON.stringify(args));
export const contentString = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));

/** Parses every message; returns null when one is not a chat message (the trajectory is skipped). */
export function parseMessages(raw: unknown[]): ChatMessage[] | null {
  const out: ChatMessage[] = [];
  for (const m of raw) {
    const parsed = ChatMessageSchema.safeParse(m);
    if (!parsed.success) return null;
    out.push(parsed.data);
  }
  return out;
}

/** Gives every tool call an id and pairs each tool result with the call it answers (in order). */
export function normalizeToolCalls(messages: ChatMessage[]): { messages: ChatMessage[]; calls: Map<ChatMessage, NormalizedToolCall[]> } {
  const calls = new Map<ChatMessage, NormalizedToolCall[]>();
  const pending: string[] = [];
  let n = 0;
  const out = messages.map((m) => {
    if (m.role === "assistant" && m.tool_calls?.length) {
      const normalized = m.tool_calls.map((c) => ({ id: c.id ?? `call_${++n}`, type: "function" as const, function: { name: c.function.name, arguments: argumentsString(c.function.arguments) } }));
      pending.push(...normalized.map((c) => c.id));
      calls.set(m, normalized);
      return m;
    }
    if (m.role === "tool") return { ...m, tool_call_id: m.tool_call_id ?? pending.shift() ?? `call_${++n}` };
    return m;
  });
  return { messages: out, calls };
}
