import "server-only";
/**
 * An LlmClient bound to one step of a run: the Postgres response cache (lib/llm/server) shared by
 * every worker, and a recorder writing each call (LlmCall) and adding its tokens and cost to the
 * step and the run in one transaction — the same accounting SkelBuilder's steps use, so budgets
 * and cost pages read one total. A run that snapshotted its prices passes them with the ids; they
 * win over the process's LLM_PRICES, so its cost does not depend on which worker ran it.
 */
import { err } from "@/lib/core/result";
import type { Db } from "@/lib/db";
import {
  type LlmClient,
  type LlmConfig,
  type PriceTable,
  type RetryPolicy,
  createLlmClient,
  createOpenAiTransport,
  readLlmConfig,
  realSleep,
} from "@/lib/llm";
import { createDbCache } from "@/lib/llm/server/db-cache";
import { getGlobalEndpointLimiter } from "@/lib/llm/server/global-limiter";
import { createStepRecorder } from "./step-recorder";

export type RunLlmFactory = (ids: { runId: string; stepId: string; prices?: PriceTable }) => LlmClient;
export type RunLlmOverrides = Partial<
  Pick<LlmConfig, "baseUrl" | "apiKey" | "timeoutMs" | "concurrency" | "requestsPerMinute" | "prices">
> & { retry?: RetryPolicy; signal?: AbortSignal };

let envConfig: LlmConfig | null = null;

/** Step-bound clients on the configured endpoint (tests and benchmarks override the endpoint). */
export function createRunLlmFactory(db: Db, overrides: RunLlmOverrides = {}): RunLlmFactory {
  envConfig ??= readLlmConfig();
  const config = {
    ...envConfig,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  const baseUrl = config.baseUrl;
  if (!baseUrl) {
    const missing = {
      code: "NOT_CONFIGURED" as const,
      message: "OPENAI_BASE_URL is not set: configure an OpenAI-compatible endpoint",
      retryable: false,
    };
    const fail = () => Promise.resolve(err(missing));
    return () => ({ chat: fail, ask: fail, embed: fail });
  }
  const transport = createOpenAiTransport({ baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutMs });
  const cache = createDbCache(db);
  // Held across every worker on this database, not per process.
  const limiter = getGlobalEndpointLimiter(db, baseUrl, config);
  return ({ prices, ...ids }) =>
    createLlmClient({
      transport,
      cache,
      limiter,
      prices: { ...config.prices, ...prices },
      retry: overrides.retry ?? config.retry,
      persist: config.persist,
      recorder: createStepRecorder(db, ids),
      retryDeps: { sleep: realSleep, random: Math.random, signal: overrides.signal },
    });
}
