/**
 * Production wiring of StageDeps for one step: the configured endpoint under its process-wide
 * limiter, the Postgres cache, a recorder bound to the step, and the process's sandbox runner.
 */
import type { Db } from "@/lib/db";
import { type LlmClient, createLlmClient, createOpenAiTransport, getEndpointLimiter, getLlmConfig, realSleep } from "@/lib/llm";
import { createDbCache } from "@/lib/llm/server/db-cache";
import { getSandboxRunner } from "@/lib/sandbox";
import type { RunConfig } from "../pipeline.schema";
import type { StageDeps } from "../stages/deps";
import { createStepRecorder } from "@/lib/runs/server/step-recorder";

export function createStepLlm(db: Db, ids: { runId: string; stepId: string }, config: RunConfig, signal?: AbortSignal): LlmClient {
  const env = getLlmConfig();
  if (!env.baseUrl) {
    const missing = { code: "NOT_CONFIGURED" as const, message: "OPENAI_BASE_URL is not set: configure an OpenAI-compatible endpoint", retryable: false };
    return { chat: () => Promise.resolve({ ok: false, error: missing }), embed: () => Promise.resolve({ ok: false, error: missing }) };
  }
  return createLlmClient({
    transport: createOpenAiTransport({ baseUrl: env.baseUrl, apiKey: env.apiKey, timeoutMs: env.timeoutMs }),
    cache: createDbCache(db),
    recorder: createStepRecorder(db, ids),
    limiter: getEndpointLimiter(env.baseUrl, env.concurrency),
    prices: { ...env.prices, ...config.prices },
    retry: env.retry,
    retryDeps: { sleep: realSleep, random: Math.random, signal },
  });
}

export function createStageDeps(db: Db, ids: { runId: string; stepId: string }, config: RunConfig, opts: { cacheSalt?: string; signal?: AbortSignal } = {}): StageDeps {
  return { llm: createStepLlm(db, ids, config, opts.signal), sandbox: getSandboxRunner(), models: config.models, cacheSalt: opts.cacheSalt };
}
