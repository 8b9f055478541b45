/**
 * The one read boundary of Trajectory.messages. Rollouts store `TrajectoryMessages` (the LLM
 * domain's ChatMessage: camelCase `toolCalls` / `toolCallId`). Rows written before that shape was
 * fixed may hold a bare array of OpenAI wire messages (snake_case `tool_calls`, `tool_call_id`,
 * arguments as an object or string, tool content of any JSON type); those are converted here, so
 * every reader (viewer, exporters) sees one type. Anything else is an error naming what is wrong,
 * never an empty list.
 */
import { z } from "zod";
import { type Result, err, ok } from "../core/result";
import type { ChatMessage, ToolCall } from "../llm/llm.schema";
import { type TrajectoryMessages, TrajectoryMessagesSchema } from "./rollout.schema";
import { formatZodIssues } from "../core/zod-issues";

const WireToolCallSchema = z.object({
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default("{}"),
  }),
});

const WireMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable().default(null),
    reasoning_content: z.string().nullable().optional(),
    tool_calls: z.array(WireToolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string().optional(), content: z.unknown() }),
]);
type WireMessage = z.infer<typeof WireMessageSchema>;

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** OpenAI wire messages → ChatMessages; calls without an id get one, results pair with calls in order. */
function fromWire(messages: WireMessage[]): ChatMessage[] {
  const pending: string[] = [];
  let n = 0;
  return messages.map((m): ChatMessage => {
    if (m.role === "assistant") {
      const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c) => ({
        id: c.id ?? `call_${++n}`,
        name: c.function.name,
        arguments: asText(c.function.arguments),
      }));
      pending.push(...toolCalls.map((c) => c.id));
      return {
        role: "assistant",
        content: m.content,
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
      };
    }
    if (m.role === "tool")
      return {
        role: "tool",
        toolCallId: m.tool_call_id ?? pending.shift() ?? `call_${++n}`,
        content: asText(m.content),
      };
    return m;
  });
}

const issueText = (error: z.ZodError) => formatZodIssues(error, { root: "(root)", max: 3 });

export function readTrajectoryMessages(raw: unknown): Result<TrajectoryMessages, string> {
  if (Array.isArray(raw)) {
    const wire = z.array(WireMessageSchema).safeParse(raw);
    if (!wire.success)
      return err(
        `stored messages are neither the rollout shape nor OpenAI chat messages: ${issueText(wire.error)}`,
      );
    return ok({ agent: fromWire(wire.data), user: [], endReason: null, finalText: null, score: null });
  }
  const parsed = TrajectoryMessagesSchema.safeParse(raw);
  return parsed.success
    ? ok(parsed.data)
    : err(`stored messages do not match the rollout shape: ${issueText(parsed.error)}`);
}
