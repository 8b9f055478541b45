import "server-only";
/**
 * Production wiring of StageDeps for one step: the configured endpoint under its limits held
 * across every worker (lib/llm/server/global-limiter.ts), the Postgres cache, a recorder bound to the step, and the process's sandbox runner.
 */
import type { Db } from "@/lib/db";
import {
  type LlmClient,
  type Transport,
  createLlmClient,
  createOpenAiTransport,
  getLlmConfig,
  realSleep,
} from "@/lib/llm";
import { createDbCache } from "@/lib/llm/server/db-cache";
import { getGlobalEndpointLimiter } from "@/lib/llm/server/global-limiter";
import { getSandboxRunner } from "@/lib/sandbox";
import type { RunConfig } from "../pipeline.schema";
import { runPrices } from "../run-config";
import type { StageDeps } from "../stages/deps";
import { createStepRecorder } from "@/lib/runs/server/step-recorder";

let transport: { key: string; value: Transport } | null = null;
/** One SDK client per endpoint and process (building one per step cost ~1 ms of CPU each time). */
function sharedTransport(baseUrl: string, env: { apiKey: string; timeoutMs: number }): Transport {
  const key = JSON.stringify([baseUrl, env.apiKey, env.timeoutMs]);
  if (transport?.key !== key)
    transport = {
      key,
      value: createOpenAiTransport({ baseUrl, apiKey: env.apiKey, timeoutMs: env.timeoutMs }),
    };
  return transport.value;
}

export function createStepLlm(
  db: Db,
  ids: { runId: string; stepId: string },
  config: RunConfig,
  signal?: AbortSignal,
): LlmClient {
  const env = getLlmConfig();
  if (!env.baseUrl) {
    const missing = {
      code: "NOT_CONFIGURED" as const,
      message: "OPENAI_BASE_URL is not set: configure an OpenAI-compatible endpoint",
      retryable: false,
    };
    const fail = () => Promise.resolve({ ok: false as const, error: missing });
    return { chat: fail, ask: fail, embed: fail };
  }
  return createLlmClient({
    transport: sharedTransport(env.baseUrl, env),
    cache: createDbCache(db),
    recorder: createStepRecorder(db, ids),
    limiter: getGlobalEndpointLimiter(db, env.baseUrl, env),
    prices: runPrices(config, env.prices),
    retry: env.retry,
    persist: env.persist,
    retryDeps: { sleep: realSleep, random: Math.random, signal },
  });
}

export function createStageDeps(
  db: Db,
  ids: { runId: string; stepId: string },
  config: RunConfig,
  opts: { cacheSalt?: string; signal?: AbortSignal } = {},
): StageDeps {
  return {
    llm: createStepLlm(db, ids, config, opts.signal),
    sandbox: getSandboxRunner(),
    models: config.models,
    cacheSalt: opts.cacheSalt,
    maxReasks: config.maxReasks,
  };
}
