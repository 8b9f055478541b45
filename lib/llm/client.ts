/**
 * The LlmClient stages use. A reply is cached only once the stage ACCEPTED it: the stage's parser
 * (JSON shape, zod schema, AST check) runs inside the call, so a rejected reply is recorded with
 * its reason and never served again, and a cached reply the stage now rejects is evicted.
 * Order per call: cache, budget, then the request is recorded as sent, sent under the endpoint's
 * concurrency limit with retries (each retry recorded before it goes out), and the outcome recorded
 * once judged. Writes holding a paid answer retry while the database is away (persist.ts).
 */
import { type Result, err, ok } from "../core/result";
import { linkSignal } from "./abort";
import {
  type AttemptEntry,
  type CallOutcome,
  type LlmRecorder,
  billedUsage,
  entryOf,
  estimateUsage,
} from "./call-record";
import { chatCacheKey, embeddingCacheKey } from "./cache-key";
import type { Limiter } from "./limiter";
import {
  type ChatRequest,
  type ChatResponse,
  ChatResponseSchema,
  type ChatResult,
  EmbeddingResponseSchema,
  type LlmError,
  type Usage,
} from "./llm.schema";
import type { Transport } from "./openai-transport";
import { DEFAULT_PERSIST_POLICY, type PersistPolicy, persistWithRetry } from "./persist";
import { type PriceTable, costOf, findPrice } from "./pricing";
import { type RetryDeps, type RetryPolicy, withRetries } from "./retry";

/** Judges a reply: the value the stage will use, or why the reply cannot be used. May throw when the check itself cannot run. */
export type Parser<T> = (reply: ChatResult) => Result<T, string> | Promise<Result<T, string>>;
export type Answer<T> = { reply: ChatResult; verdict: Result<T, string> };

export interface LlmClient {
  chat(request: ChatRequest): Promise<Result<ChatResult, LlmError>>;
  /** Asks and judges the reply with `accept` before caching it; the verdict says whether it was used. */
  ask<T>(request: ChatRequest, accept: Parser<T>): Promise<Result<Answer<T>, LlmError>>;
  embed(model: string, input: string[]): Promise<Result<number[][], LlmError>>;
}

/** Postgres in production (LlmCacheEntry); a Map in unit tests. */
export interface LlmCache {
  get(key: string): Promise<unknown>;
  put(key: string, model: string, response: unknown): Promise<void>;
  evict(key: string): Promise<void>;
}

export type LlmClientDeps = {
  transport: Transport;
  cache: LlmCache;
  recorder: LlmRecorder;
  limiter: Limiter;
  prices: PriceTable;
  retry: RetryPolicy;
  retryDeps: RetryDeps;
  persist?: PersistPolicy;
  now?: () => number;
};

type Meta = { model: string; purpose: string; request: unknown };
type Judged<T> = { verdict: Result<T, string> } | { unchecked: string };

/** A parser that throws could not check the reply (e.g. the sandbox is down): not the reply's fault. */
async function judge<R, T>(
  accept: (r: R) => Result<T, string> | Promise<Result<T, string>>,
  reply: R,
): Promise<Judged<T>> {
  try {
    return { verdict: await accept(reply) };
  } catch (e) {
    return { unchecked: e instanceof Error ? e.message : String(e) };
  }
}

const uncheckedError = (why: string): LlmError => ({
  code: "BAD_RESPONSE",
  message: `the reply could not be checked: ${why}`,
  retryable: true,
});

/**
 * Identical requests in flight at the same time in this process share one HTTP call (two
 * environments of a run often ask the very same question); the followers judge the shared reply
 * themselves and record a cache hit.
 */
const inFlight = new Map<string, Promise<Result<ChatResponse, LlmError>>>();

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const now = deps.now ?? (() => Date.now());
  const persist = <T>(write: () => Promise<T>) =>
    persistWithRetry(write, deps.persist ?? DEFAULT_PERSIST_POLICY, deps.retryDeps.sleep, now);
  /** Cache and budget in one round trip of latency; a hit is served whatever the budget says. */
  const lookUp = (key: string) =>
    Promise.all([persist(() => deps.cache.get(key)), persist(() => deps.recorder.checkBudget())]);

  /** Records the request, sends it with retries (each retry recorded first), returns the raw result. */
  async function send<R>(
    key: string,
    meta: Meta,
    estimate: Usage,
    call: (signal?: AbortSignal) => Promise<Result<R, LlmError>>,
  ) {
    const callId = await persist(() =>
      deps.recorder.begin({
        cacheKey: key,
        ...meta,
        estimate,
        estimatedCostUsd: costOf(deps.prices, meta.model, estimate),
        unpriced: !findPrice(deps.prices, meta.model),
      }),
    );
    const log: AttemptEntry[] = [];
    const started = now();
    const linked = linkSignal(deps.retryDeps.signal);
    try {
      const result = await withRetries(
        async (attempt) => {
          if (attempt > 0) await persist(() => deps.recorder.retrying(callId, attempt + 1, log));
          return deps.limiter.run(async () => {
            const at = now();
            const r = await call(linked.signal);
            log.push(entryOf(attempt + 1, now() - at, r.ok ? undefined : r.error));
            return r;
          });
        },
        deps.retry,
        deps.retryDeps,
        (_error, _attempt, delayMs) => {
          const last = log.at(-1);
          if (last) last.waitMs = delayMs;
        },
      );
      return { callId, result, log, latencyMs: now() - started };
    } finally {
      linked.release();
    }
  }

  const finish = (callId: string, outcome: CallOutcome) =>
    persist(() => deps.recorder.finish(callId, outcome));

  /**
   * Judges a paid reply; caches it only when accepted. Every attempt that was billed counts, the
   * failed ones included (a 200 with no choices is paid for, then retried).
   */
  async function settle<R extends { usage: Usage; model: string }, T>(
    key: string,
    meta: Meta,
    sent: Awaited<ReturnType<typeof send<R>>>,
    accept: (r: R) => Result<T, string> | Promise<Result<T, string>>,
    summarize: (r: R) => unknown,
  ): Promise<Result<{ value: R; verdict: Result<T, string> }, LlmError>> {
    const { callId, result, log, latencyMs } = sent;
    const usage = billedUsage(log, result.ok ? result.value.usage : undefined);
    const base = { latencyMs, attempts: log, usage, costUsd: costOf(deps.prices, meta.model, usage) };
    if (!result.ok) {
      await finish(callId, {
        ...base,
        status: "FAILED",
        response: null,
        errorMessage: `${result.error.code}: ${result.error.message}`,
        rejection: null,
      });
      return result;
    }
    const paidFor = { ...base, response: summarize(result.value), errorMessage: null };
    const judged = await judge(accept, result.value);
    if ("unchecked" in judged) {
      await finish(callId, { ...paidFor, status: "REJECTED", rejection: `not checked: ${judged.unchecked}` });
      return err(uncheckedError(judged.unchecked));
    }
    if (!judged.verdict.ok) {
      await finish(callId, { ...paidFor, status: "REJECTED", rejection: judged.verdict.error });
      return ok({ value: result.value, verdict: judged.verdict });
    }
    // Cache before recording: if the process dies between the two, the answer is still not paid twice.
    await persist(() => deps.cache.put(key, meta.model, result.value));
    await finish(callId, { ...paidFor, status: "ACCEPTED", rejection: null });
    return ok({ value: result.value, verdict: judged.verdict });
  }

  const hit = (key: string, meta: Meta, response: unknown, usage: Usage, rejection: string | null) =>
    persist(() => deps.recorder.hit({ cacheKey: key, ...meta, response, usage, rejection }));

  async function ask<T>(request: ChatRequest, accept: Parser<T>): Promise<Result<Answer<T>, LlmError>> {
    const key = chatCacheKey(request);
    const meta = { model: request.model, purpose: request.purpose ?? "chat", request };
    const [cached, budget] = await lookUp(key);
    const stored = ChatResponseSchema.safeParse(cached);
    if (stored.success) {
      const reply: ChatResult = { ...stored.data, cached: true, cacheKey: key };
      const judged = await judge(accept, reply);
      if ("unchecked" in judged) return err(uncheckedError(judged.unchecked));
      if (judged.verdict.ok) {
        await hit(key, meta, stored.data, stored.data.usage, null);
        return ok({ reply, verdict: judged.verdict });
      }
      // A poisoned entry (cached before replies were judged, or the checks got stricter): evict and ask.
      await persist(() => deps.cache.evict(key));
      await hit(
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
        await hit(
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
      const sent = await send(key, meta, estimateUsage(request), (signal) =>
        deps.transport.chat(request, signal),
      );
      release(sent.result);
      const settled = await settle(
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

  return {
    ask,
    async chat(request) {
      const answered = await ask(request, (r) => ok(r));
      return answered.ok ? ok(answered.value.reply) : answered;
    },
    async embed(model, input) {
      if (input.length === 0) return ok([]);
      const key = embeddingCacheKey(model, input);
      const meta = { model, purpose: "embeddings", request: { model, input } };
      const [cached, budget] = await lookUp(key);
      const stored = EmbeddingResponseSchema.safeParse(cached);
      if (stored.success && stored.data.vectors.length === input.length) {
        await hit(key, meta, { vectors: stored.data.vectors.length }, stored.data.usage, null);
        return ok(stored.data.vectors);
      }
      if (cached !== undefined) await persist(() => deps.cache.evict(key)); // unusable: never served again
      if (!budget.ok) return budget;
      const countOk = (v: { vectors: number[][] }): Result<number[][], string> =>
        v.vectors.length === input.length
          ? ok(v.vectors)
          : err(`asked for ${input.length} embeddings, got ${v.vectors.length}`);
      // Vectors are cached in full but recorded as a count: LlmCall rows stay readable.
      const sent = await send(key, meta, estimateUsage({ input }), (signal) =>
        deps.transport.embed(model, input, signal),
      );
      const settled = await settle(key, meta, sent, countOk, (v) => ({
        vectors: v.vectors.length,
        usage: v.usage,
      }));
      if (!settled.ok) return settled;
      return settled.value.verdict.ok
        ? ok(settled.value.verdict.value)
        : err({ code: "BAD_RESPONSE", message: settled.value.verdict.error, retryable: true });
    },
  };
}
