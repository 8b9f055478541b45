/**
 * One attempt against an OpenAI-compatible endpoint through the official SDK. No retries here
 * (maxRetries: 0): retry.ts owns the policy. SDK errors become typed LlmErrors that say whether a
 * retry could help and carry the server's Retry-After.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { z } from "zod";
import { type Result, err, ok } from "../core/result";
import type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  EmbeddingResponse,
  LlmError,
  Usage,
} from "./llm.schema";

export type Transport = {
  endpoint: string;
  chat(request: ChatRequest, signal?: AbortSignal): Promise<Result<ChatResponse, LlmError>>;
  embed(model: string, input: string[], signal?: AbortSignal): Promise<Result<EmbeddingResponse, LlmError>>;
};

export type TransportOptions = { baseUrl: string; apiKey: string; timeoutMs: number };

type SdkMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toSdkMessage(m: ChatMessage): SdkMessage {
  if (m.role === "tool") return { role: "tool", content: m.content, tool_call_id: m.toolCallId };
  if (m.role === "assistant") {
    const toolCalls = m.toolCalls?.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    }));
    return { role: "assistant", content: m.content, ...(toolCalls?.length ? { tool_calls: toolCalls } : {}) };
  }
  return { role: m.role, content: m.content };
}

function toolChoice(
  choice: ChatRequest["toolChoice"],
): OpenAI.Chat.Completions.ChatCompletionToolChoiceOption | undefined {
  if (choice === undefined || typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function mapSdkError(error: unknown): LlmError {
  if (error instanceof APIConnectionTimeoutError)
    return { code: "TIMEOUT", message: "the LLM endpoint timed out", retryable: true };
  if (error instanceof APIUserAbortError)
    return { code: "CANCELLED", message: "request aborted", retryable: false };
  if (error instanceof APIConnectionError)
    return {
      code: "CONNECTION",
      message: `cannot reach the LLM endpoint: ${error.message}`,
      retryable: true,
    };
  if (error instanceof APIError) {
    // instanceof narrows to APIError<any, any>; name the shape the SDK documents.
    const apiError = error as APIError<number | undefined, Headers | undefined>;
    const status = apiError.status ?? 0;
    const base = {
      status,
      message: `HTTP ${status}: ${apiError.message}`,
      retryAfterMs: parseRetryAfter(apiError.headers),
    };
    if (status === 429) return { ...base, code: "RATE_LIMITED", retryable: true };
    if (status === 408 || status >= 500) return { ...base, code: "SERVER_ERROR", retryable: true };
    if (status === 401 || status === 403) return { ...base, code: "AUTH", retryable: false };
    return { ...base, code: "BAD_REQUEST", retryable: false };
  }
  // The SDK throws plain errors for bodies that are not JSON: a broken proxy, usually transient.
  return {
    code: "BAD_RESPONSE",
    message: error instanceof Error ? error.message : String(error),
    retryable: true,
  };
}

const WireUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0).default(0),
});

/** The usage a 200 answer reports, read apart from the rest: an answer we cannot use is billed all the same. */
function reportedUsage(body: unknown): Usage | undefined {
  const usage = WireUsageSchema.safeParse((body as { usage?: unknown } | null)?.usage);
  return usage.success
    ? { promptTokens: usage.data.prompt_tokens, completionTokens: usage.data.completion_tokens }
    : undefined;
}

/** A 200 whose body is not an answer: retryable (usually transient), carrying what it was billed. */
const unusable = (message: string, usage: Usage | undefined): LlmError => ({
  code: "BAD_RESPONSE",
  message,
  retryable: true,
  ...(usage ? { usage } : {}),
});

function toResponse(
  completion: OpenAI.Chat.Completions.ChatCompletion,
  model: string,
): Result<ChatResponse, LlmError> {
  const usage = reportedUsage(completion);
  try {
    const choice = completion.choices?.[0];
    if (!choice?.message) return err(unusable("the endpoint returned no choices", usage));
    const toolCalls = (choice.message.tool_calls ?? []).flatMap((c) =>
      c.type === "function" ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
    );
    return ok({
      content: choice.message.content ?? null,
      toolCalls,
      finishReason: choice.finish_reason ?? null,
      usage: usage ?? { promptTokens: 0, completionTokens: 0 },
      model: completion.model || model,
    });
  } catch (error) {
    return err(
      unusable(`malformed answer: ${error instanceof Error ? error.message : String(error)}`, usage),
    );
  }
}

function toEmbeddings(res: OpenAI.Embeddings.CreateEmbeddingResponse, model: string) {
  const usage = reportedUsage(res);
  if (!Array.isArray(res.data)) return err(unusable("the endpoint returned no embeddings", usage));
  const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  return ok({ vectors, model: res.model || model, usage: usage ?? { promptTokens: 0, completionTokens: 0 } });
}

export function createOpenAiTransport(options: TransportOptions): Transport {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || "none",
    maxRetries: 0,
    timeout: options.timeoutMs,
  });
  return {
    endpoint: options.baseUrl,
    async chat(request, signal) {
      try {
        const completion = await client.chat.completions.create(
          {
            model: request.model,
            messages: request.messages.map(toSdkMessage),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
            ...(request.tools?.length
              ? { tools: request.tools, tool_choice: toolChoice(request.toolChoice) }
              : {}),
            ...(request.jsonMode ? { response_format: { type: "json_object" as const } } : {}),
          },
          { signal },
        );
        return toResponse(completion, request.model);
      } catch (error) {
        return err(mapSdkError(error));
      }
    },
    async embed(model, input, signal) {
      try {
        // "float" explicitly: without it the SDK asks for base64 and decodes it itself, which breaks on
        // OpenAI-compatible servers that ignore encoding_format and answer with plain float arrays.
        const res = await client.embeddings.create({ model, input, encoding_format: "float" }, { signal });
        return toEmbeddings(res, model);
      } catch (error) {
        return err(mapSdkError(error));
      }
    },
  };
}
