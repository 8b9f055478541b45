/**
 * The LLM domain's vocabulary: chat requests and replies (OpenAI chat-completions shape, trimmed
 * to what the pipeline uses), tool calls, usage and typed errors. Replies from the endpoint are
 * parsed with these schemas, never cast.
 */
import { z } from "zod";

export const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Raw JSON text as the model produced it; callers parse it with their own schema. */
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    toolCalls: z.array(ToolCallSchema).optional(),
    /** Reasoning text kept beside the answer (e.g. `reasoning_content` of imported rows); never sent to an endpoint. */
    reasoning: z.string().optional(),
  }),
  z.object({ role: z.literal("tool"), content: z.string(), toolCallId: z.string() }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const FunctionToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
export type FunctionTool = z.infer<typeof FunctionToolSchema>;

export const ChatRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(ChatMessageSchema).min(1),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  tools: z.array(FunctionToolSchema).optional(),
  /** "required" forces a tool call; a name forces that function. */
  toolChoice: z.union([z.enum(["auto", "required", "none"]), z.object({ name: z.string() })]).optional(),
  /** Ask for a JSON object (response_format json_object); parsing never relies on it. */
  jsonMode: z.boolean().optional(),
  /** Mixed into the cache key only: a deliberate "fresh" re-run uses a new salt. */
  cacheSalt: z.string().optional(),
  /** What the call is for (stored with the call record; not sent, not part of the cache key). */
  purpose: z.string().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const UsageSchema = z.object({
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ChatResponseSchema = z.object({
  content: z.string().nullable(),
  toolCalls: z.array(ToolCallSchema),
  finishReason: z.string().nullable(),
  usage: UsageSchema,
  model: z.string(),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

export const EmbeddingResponseSchema = z.object({
  vectors: z.array(z.array(z.number())),
  usage: UsageSchema,
  model: z.string(),
});
export type EmbeddingResponse = z.infer<typeof EmbeddingResponseSchema>;

export type LlmErrorCode =
  | "RATE_LIMITED"
  | "SERVER_ERROR"
  | "TIMEOUT"
  | "CONNECTION"
  | "BAD_REQUEST"
  | "AUTH"
  | "BAD_RESPONSE"
  | "PARSE_FAILED"
  | "BUDGET_EXCEEDED"
  | "CANCELLED"
  | "NOT_CONFIGURED";

export type LlmError = {
  code: LlmErrorCode;
  message: string;
  retryable: boolean;
  /** From Retry-After / retry-after-ms when the endpoint sent one. */
  retryAfterMs?: number;
  status?: number;
  /** Tokens the endpoint billed for an answer that could not be used (e.g. HTTP 200 with no choices). */
  usage?: Usage;
};

/** What a cached or fresh reply looks like to callers; `cached` says whether it cost anything. */
export type ChatResult = ChatResponse & { cached: boolean; cacheKey: string };
