import { type Result, err, ok } from "../core/result";
import { estimateUsage } from "./call-record";
import { embeddingCacheKey } from "./cache-key";
import { EmbeddingResponseSchema, type LlmError } from "./llm.schema";
import type { Transport } from "./openai-transport";
import type { PaidCalls } from "./paid-call";

/** Embeddings for `input`, one vector per text; a cached set with the wrong count is evicted. */
export async function embedTexts(
  calls: PaidCalls,
  transport: Transport,
  model: string,
  input: string[],
): Promise<Result<number[][], LlmError>> {
  if (input.length === 0) return ok([]);
  const key = embeddingCacheKey(model, input);
  const meta = { model, purpose: "embeddings", request: { model, input } };
  const [cached, budget] = await calls.lookUp(key);
  const stored = EmbeddingResponseSchema.safeParse(cached);
  if (stored.success && stored.data.vectors.length === input.length) {
    await calls.hit(key, meta, { vectors: stored.data.vectors.length }, stored.data.usage, null);
    return ok(stored.data.vectors);
  }
  if (cached !== undefined) await calls.evict(key); // unusable: never served again
  if (!budget.ok) return budget;
  const countOk = (v: { vectors: number[][] }): Result<number[][], string> =>
    v.vectors.length === input.length
      ? ok(v.vectors)
      : err(`asked for ${input.length} embeddings, got ${v.vectors.length}`);
  // Vectors are cached in full but recorded as a count: LlmCall rows stay readable.
  const sent = await calls.send(key, meta, estimateUsage({ input }), (signal) =>
    transport.embed(model, input, signal),
  );
  const settled = await calls.settle(key, meta, sent, countOk, (v) => ({
    vectors: v.vectors.length,
    usage: v.usage,
  }));
  if (!settled.ok) return settled;
  return settled.value.verdict.ok
    ? ok(settled.value.verdict.value)
    : err({ code: "BAD_RESPONSE", message: settled.value.verdict.error, retryable: true });
}
