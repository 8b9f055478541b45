/**
 * The LlmClient stages use: cache first (a hit costs nothing and is recorded as cached), then the
 * budget, then the endpoint under its concurrency limit with retries. Every call — hit, success or
 * final failure — is handed to the recorder with its usage and cost.
 */
import { type Result, err, ok } from "../core/result";
import { chatCacheKey, embeddingCacheKey } from "./cache-key";
import type { Limiter } from "./limiter";
import { type ChatRequest, type ChatResponse, ChatResponseSchema, type ChatResult, EmbeddingResponseSchema, type LlmError, type Usage } from "./llm.schema";
import type { Transport } from "./openai-transport";
import { type PriceTable, costOf } from "./pricing";
import { type RetryDeps, type RetryPolicy, withRetries } from "./retry";

export interface LlmClient {
  chat(request: ChatRequest): Promise<Result<ChatResult, LlmError>>;
  embed(model: string, input: string[]): Promise<Result<number[][], LlmError>>;
}

/** Postgres in production (LlmCacheEntry); a Map in unit tests. */
export interface LlmCache {
  get(key: string): Promise<unknown>;
  put(key: string, model: string, response: unknown): Promise<void>;
}

export type LlmCallRecord = {
  cacheKey: string;
  model: string;
  purpose: string;
  request: unknown;
  response: unknown;
  cached: boolean;
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  errorMessage: string | null;
  attempts: number;
};

export interface LlmRecorder {
  record(call: LlmCallRecord): Promise<void>;
  /** Refuses new paid calls once the run's token or cost budget is spent. */
  checkBudget(): Promise<Result<void, LlmError>>;
}

export type LlmClientDeps = {
  transport: Transport;
  cache: LlmCache;
  recorder: LlmRecorder;
  limiter: Limiter;
  prices: PriceTable;
  retry: RetryPolicy;
  retryDeps: RetryDeps;
  now?: () => number;
};

const ZERO: Usage = { promptTokens: 0, completionTokens: 0 };

/**
 * Identical requests in flight at the same time in this process share one HTTP call (two
 * environments of a run often ask the very same question); the followers record a cache hit.
 */
const inFlight = new Map<string, Promise<Result<ChatResponse, LlmError>>>();

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const now = deps.now ?? (() => Date.now());

  /**
   * The cache and the budget are read together (one round trip of latency before each call rather
   * than two); a cache hit is served whatever the budget says, since it costs nothing.
   */
  const lookUp = (key: string) => Promise.all([deps.cache.get(key), deps.recorder.checkBudget()]);

  async function paid<T extends { usage: Usage; model: string }>(
    key: string,
    meta: { model: string; purpose: string; request: unknown },
    budget: Result<void, LlmError>,
    call: (signal?: AbortSignal) => Promise<Result<T, LlmError>>,
    summarize: (value: T) => unknown = (value) => value,
  ): Promise<Result<T, LlmError>> {
    if (!budget.ok) return budget;
    const started = now();
    let attempts = 0;
    const result = await withRetries(
      () => {
        attempts += 1;
        return deps.limiter.run(() => call(deps.retryDeps.signal));
      },
      deps.retry,
      deps.retryDeps,
    );
    const latencyMs = now() - started;
    if (!result.ok) {
      await deps.recorder.record({ cacheKey: key, ...meta, response: null, cached: false, usage: ZERO, costUsd: 0, latencyMs, errorMessage: `${result.error.code}: ${result.error.message}`, attempts });
      return result;
    }
    // Cache before recording: if the process dies between the two, the answer is still not paid twice.
    await deps.cache.put(key, meta.model, result.value);
    const costUsd = costOf(deps.prices, meta.model, result.value.usage);
    await deps.recorder.record({ cacheKey: key, ...meta, response: summarize(result.value), cached: false, usage: result.value.usage, costUsd, latencyMs, errorMessage: null, attempts });
    return result;
  }

  return {
    async chat(request) {
      const key = chatCacheKey(request);
      const meta = { model: request.model, purpose: request.purpose ?? "chat", request };
      const [cached, budget] = await lookUp(key);
      const hit = ChatResponseSchema.safeParse(cached);
      if (hit.success) {
        await deps.recorder.record({ cacheKey: key, ...meta, response: hit.data, cached: true, usage: hit.data.usage, costUsd: 0, latencyMs: 0, errorMessage: null, attempts: 0 });
        return ok({ ...hit.data, cached: true, cacheKey: key });
      }
      const shared = inFlight.get(key);
      if (shared) {
        const joined = await shared;
        if (joined.ok) {
          await deps.recorder.record({ cacheKey: key, ...meta, response: joined.value, cached: true, usage: joined.value.usage, costUsd: 0, latencyMs: 0, errorMessage: null, attempts: 0 });
          return ok({ ...joined.value, cached: true, cacheKey: key });
        }
      }
      const pending = paid(key, meta, budget, (signal) => deps.transport.chat(request, signal));
      inFlight.set(key, pending);
      const result = await pending.finally(() => inFlight.delete(key));
      return result.ok ? ok({ ...result.value, cached: false, cacheKey: key }) : result;
    },

    async embed(model, input) {
      if (input.length === 0) return ok([]);
      const key = embeddingCacheKey(model, input);
      const meta = { model, purpose: "embeddings", request: { model, input } };
      const [cached, budget] = await lookUp(key);
      const hit = EmbeddingResponseSchema.safeParse(cached);
      if (hit.success) {
        await deps.recorder.record({ cacheKey: key, ...meta, response: { vectors: hit.data.vectors.length }, cached: true, usage: hit.data.usage, costUsd: 0, latencyMs: 0, errorMessage: null, attempts: 0 });
        return ok(hit.data.vectors);
      }
      // Vectors are cached in full but recorded as a count: LlmCall rows stay readable.
      const result = await paid(key, meta, budget, (signal) => deps.transport.embed(model, input, signal), (v) => ({ vectors: v.vectors.length, usage: v.usage }));
      if (!result.ok) return result;
      if (result.value.vectors.length !== input.length) return err({ code: "BAD_RESPONSE", message: `asked for ${input.length} embeddings, got ${result.value.vectors.length}`, retryable: true });
      return ok(result.value.vectors);
    },
  };
}

/** In-memory cache and a recorder that only collects: for unit tests, benchmarks and the CLI dry runs. */
export function createMemoryCache(): LlmCache & { size(): number } {
  const map = new Map<string, unknown>();
  return { get: (k) => Promise.resolve(map.get(k)), put: (k, _m, r) => Promise.resolve(void map.set(k, r)), size: () => map.size };
}

export function createMemoryRecorder(): LlmRecorder & { calls: LlmCallRecord[] } {
  const calls: LlmCallRecord[] = [];
  return { calls, record: (c) => Promise.resolve(void calls.push(c)), checkBudget: () => Promise.resolve(ok(undefined)) };
}
