/**
 * The paid side of every LLM call: a request is recorded as sent before it goes out, sent under
 * the endpoint's concurrency limit with retries (each retry recorded before it goes out), judged,
 * cached only once accepted, and its outcome recorded. Writes holding a paid answer retry while the
 * database is away (persist.ts). Chat and embeddings share this; what differs is in ask-chat.ts and
 * embed-texts.ts.
 */
import { type Result, err, ok } from "../core/result";
import { linkSignal } from "./abort";
import { type AttemptEntry, type CallOutcome, billedUsage, entryOf } from "./call-record";
import type { LlmClientDeps } from "./client.types";
import type { LlmError, Usage } from "./llm.schema";
import { DEFAULT_PERSIST_POLICY, persistWithRetry } from "./persist";
import { costOf, findPrice } from "./pricing";
import { withRetries } from "./retry";

export type Meta = { model: string; purpose: string; request: unknown };
export type Judged<T> = { verdict: Result<T, string> } | { unchecked: string };

/** A parser that throws could not check the reply (e.g. the sandbox is down): not the reply's fault. */
export async function judge<R, T>(
  accept: (r: R) => Result<T, string> | Promise<Result<T, string>>,
  reply: R,
): Promise<Judged<T>> {
  try {
    return { verdict: await accept(reply) };
  } catch (e) {
    return { unchecked: e instanceof Error ? e.message : String(e) };
  }
}

export const uncheckedError = (why: string): LlmError => ({
  code: "BAD_RESPONSE",
  message: `the reply could not be checked: ${why}`,
  retryable: true,
});

/** A request as sent: its ledger row, the final result and every attempt. */
export type Sent<R> = { callId: string; result: Result<R, LlmError>; log: AttemptEntry[]; latencyMs: number };

export type PaidCalls = ReturnType<typeof createPaidCalls>;

export function createPaidCalls(deps: LlmClientDeps) {
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
  ): Promise<Sent<R>> {
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
    sent: Sent<R>,
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

  /** Drops a cached reply that must never be served again. */
  const evict = (key: string) => persist(() => deps.cache.evict(key));

  return { persist, lookUp, send, settle, hit, evict };
}
