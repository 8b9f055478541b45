/**
 * Trajectory messages as the exporters read them: the LLM domain's ChatMessage, exactly what the
 * rollout stored (read through lib/rollout's `readTrajectoryMessages`). This file renders them in
 * the OpenAI chat wire shape; the return type is the openai SDK's own message type, so a field the
 * SDK would not accept fails the type check.
 */
import type OpenAI from "openai";
import type { ChatMessage } from "../llm/llm.schema";

export type OpenAiMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** One message in the OpenAI wire shape. Reasoning text is dropped: the chat format has no field for it. */
export function toOpenAiMessage(m: ChatMessage): OpenAiMessage {
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  if (m.role === "assistant") {
    if (!m.toolCalls?.length) return { role: "assistant", content: m.content ?? "" };
    const toolCalls = m.toolCalls.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    }));
    return { role: "assistant", content: m.content, tool_calls: toolCalls };
  }
  return { role: m.role, content: m.content };
}
