/**
 * What the LLM client tells its recorder about a call, in the order things happen: the request is
 * recorded before it is sent (so a killed process's call is still counted, as "paid, answer lost"
 * with estimated tokens), each retry before it is sent, and the outcome once the stage accepted or
 * rejected the answer. Cache hits are recorded on their own (they cost nothing).
 */
import type { Result } from "../core/result";
import { z } from "zod";
import { type LlmError, type Usage, UsageSchema } from "./llm.schema";

/** One HTTP attempt: what happened, how long it took, and how long we waited before the next. */
export const AttemptEntrySchema = z.object({
  attempt: z.number(),
  ok: z.boolean(),
  code: z.string().optional(),
  status: z.number().optional(),
  message: z.string().optional(),
  /** The endpoint's Retry-After, when it sent one (the wait honours it). */
  retryAfterMs: z.number().optional(),
  /** Delay before the next attempt. */
  waitMs: z.number().optional(),
  latencyMs: z.number(),
  /** What a failed attempt was billed all the same (a 200 whose answer could not be used). */
  usage: UsageSchema.optional(),
});
export type AttemptEntry = z.infer<typeof AttemptEntrySchema>;

export type CallStart = {
  cacheKey: string;
  model: string;
  purpose: string;
  request: unknown;
  estimate: Usage;
  estimatedCostUsd: number;
  /** The model has no price: its cost is recorded as $0 and the run shows a warning. */
  unpriced: boolean;
};

/** ACCEPTED: the stage used the answer (and it was cached). REJECTED: paid, but the stage could not use it. */
export type CallStatus = "ACCEPTED" | "REJECTED" | "FAILED";

export type CallOutcome = {
  status: CallStatus;
  response: unknown;
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  errorMessage: string | null;
  rejection: string | null;
  attempts: AttemptEntry[];
};

export type CacheHitRecord = {
  cacheKey: string;
  model: string;
  purpose: string;
  request: unknown;
  response: unknown;
  usage: Usage;
  rejection: string | null;
};

export interface LlmRecorder {
  /** Records the request as sent (attempt 1) and returns the call's id. */
  begin(call: CallStart): Promise<string>;
  /** Before attempt `attempt` (2, 3, …) is sent: counts it and keeps the previous attempts' log. */
  retrying(callId: string, attempt: number, log: AttemptEntry[]): Promise<void>;
  finish(callId: string, outcome: CallOutcome): Promise<void>;
  hit(call: CacheHitRecord): Promise<void>;
  /** Refuses new paid calls once the run's token or cost budget is spent. */
  checkBudget(): Promise<Result<void, LlmError>>;
}

/**
 * Tokens a request will probably cost, for a call whose answer never arrived: ~4 characters per
 * prompt token, and the completion cap (or as many tokens as the prompt when there is none).
 */
export function estimateUsage(request: { messages?: unknown; input?: unknown; maxTokens?: number }): Usage {
  const text = JSON.stringify(request.messages ?? request.input ?? "");
  const promptTokens = Math.ceil(text.length / 4);
  const completionTokens =
    request.input !== undefined ? 0 : Math.min(request.maxTokens ?? promptTokens, 4096);
  return { promptTokens, completionTokens };
}

export const entryOf = (attempt: number, latencyMs: number, error?: LlmError): AttemptEntry =>
  error
    ? {
        attempt,
        ok: false,
        code: error.code,
        ...(error.status ? { status: error.status } : {}),
        message: error.message,
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
        latencyMs,
        ...(error.usage ? { usage: error.usage } : {}),
      }
    : { attempt, ok: true, latencyMs };

/** Tokens billed over a call's attempts: the failed ones' from the log, plus the answer's. */
export function billedUsage(log: AttemptEntry[], answer?: Usage): Usage {
  return [...log.map((e) => e.usage), answer].reduce<Usage>(
    (sum, u) => ({
      promptTokens: sum.promptTokens + (u?.promptTokens ?? 0),
      completionTokens: sum.completionTokens + (u?.completionTokens ?? 0),
    }),
    { promptTokens: 0, completionTokens: 0 },
  );
}
