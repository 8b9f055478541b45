import { type Result, err, ok } from "../core/result";
import { estimateUsage } from "./call-record";
import { chatCacheKey } from "./cache-key";
import type { Answer, Parser } from "./client.types";
import {
  type ChatRequest,
  type ChatResponse,
  ChatResponseSchema,
  type ChatResult,
  type LlmError,
} from "./llm.schema";
import type { Transport } from "./openai-transport";
import { type PaidCalls, judge, uncheckedError } from "./paid-call";

/**
 * Identical requests in flight at the same time in this process share one HTTP call (two
 * environments of a run often ask the very same question); the followers judge the shared reply
 * themselves and record a cache hit.
 */
const inFlight = new Map<string, Promise<Result<ChatResponse, LlmError>>>();

/**
 * A chat request judged by the stage's parser: a cached reply the parser still accepts is served
 * (one it now rejects is evicted), an identical request already in flight is joined, otherwise the
 * request is sent and paid for.
 */
export async function askChat<T>(
  calls: PaidCalls,
  transport: Transport,
  request: ChatRequest,
  accept: Parser<T>,
): Promise<Result<Answer<T>, LlmError>> {
  const key = chatCacheKey(request);
  const meta = { model: request.model, purpose: request.purpose ?? "chat", request };
  const [cached, budget] = await calls.lookUp(key);
  const stored = ChatResponseSchema.safeParse(cached);
  if (stored.success) {
    const reply: ChatResult = { ...stored.data, cached: true, cacheKey: key };
    const judged = await judge(accept, reply);
    if ("unchecked" in judged) return err(uncheckedError(judged.unchecked));
    if (judged.verdict.ok) {
      await calls.hit(key, meta, stored.data, stored.data.usage, null);
      return ok({ reply, verdict: judged.verdict });
    }
    // A poisoned entry (cached before replies were judged, or the checks got stricter): evict and ask.
    await calls.evict(key);
    await calls.hit(
      key,
      meta,
      stored.data,
      stored.data.usage,
      `cached reply rejected and evicted: ${judged.verdict.error}`,
    );
  }
  const shared = inFlight.get(key);
  if (shared) {
    const joined = await shared;
    if (joined.ok) {
      const reply: ChatResult = { ...joined.value, cached: true, cacheKey: key };
      const judged = await judge(accept, reply);
      if ("unchecked" in judged) return err(uncheckedError(judged.unchecked));
      await calls.hit(
        key,
        meta,
        joined.value,
        joined.value.usage,
        judged.verdict.ok ? null : judged.verdict.error,
      );
      return ok({ reply, verdict: judged.verdict });
    }
  }
  if (!budget.ok) return budget;
  let release: (r: Result<ChatResponse, LlmError>) => void = () => {};
  inFlight.set(key, new Promise((r) => (release = r)));
  try {
    const sent = await calls.send(key, meta, estimateUsage(request), (signal) =>
      transport.chat(request, signal),
    );
    release(sent.result);
    const settled = await calls.settle(
      key,
      meta,
      sent,
      (r) => accept({ ...r, cached: false, cacheKey: key }),
      (r) => r,
    );
    return settled.ok
      ? ok({
          reply: { ...settled.value.value, cached: false, cacheKey: key },
          verdict: settled.value.verdict,
        })
      : settled;
  } finally {
    release(err({ code: "CANCELLED", message: "the shared call ended without a reply", retryable: true }));
    inFlight.delete(key);
  }
}
