/**
 * An LlmClient bound to one step of a run: the Postgres response cache (lib/llm/server) shared by
 * every worker, and a recorder writing each call (LlmCall) and adding its tokens and cost to the
 * step and the run in one transaction — the same accounting SkelBuilder's steps use, so budgets
 * and cost pages read one total. (SkelBuilder's step recorder in lib/pipeline/server does the same
 * for pipeline steps, bound to its own step runner.)
 */
import { err, ok } from "@/lib/core/result";
import type { Db, Prisma } from "@/lib/db";
import {
  type LlmClient,
  type LlmConfig,
  type LlmRecorder,
  type RetryPolicy,
  createLlmClient,
  createOpenAiTransport,
  getEndpointLimiter,
  readLlmConfig,
  realSleep,
} from "@/lib/llm";
import { createDbCache } from "@/lib/llm/server/db-cache";

export function createRunStepRecorder(db: Db, ids: { runId: string; stepId: string }): LlmRecorder {
  return {
    async record(call) {
      const paid = !call.cached;
      const tokens = { promptTokens: { increment: paid ? call.usage.promptTokens : 0 }, completionTokens: { increment: paid ? call.usage.completionTokens : 0 }, costUsd: { increment: call.costUsd } };
      await db.$transaction([
        db.llmCall.create({
          data: {
            runId: ids.runId, stepId: ids.stepId, cacheKey: call.cacheKey, model: call.model,
            purpose: call.purpose, attempts: call.attempts, request: call.request as Prisma.InputJsonValue,
            response: (call.response ?? undefined),
            cached: call.cached, promptTokens: call.usage.promptTokens, completionTokens: call.usage.completionTokens,
            costUsd: call.costUsd, latencyMs: call.latencyMs, errorMessage: call.errorMessage,
          },
        }),
        db.pipelineStep.update({ where: { id: ids.stepId }, data: tokens }),
        db.pipelineRun.update({ where: { id: ids.runId }, data: tokens }),
      ]);
    },
    async checkBudget() {
      const run = await db.pipelineRun.findUnique({ where: { id: ids.runId }, select: { status: true, promptTokens: true, completionTokens: true, costUsd: true, maxTokens: true, maxCostUsd: true } });
      if (!run) return err({ code: "CANCELLED", message: "the run no longer exists", retryable: false });
      if (run.status === "CANCELLING" || run.status === "CANCELLED") return err({ code: "CANCELLED", message: "the run was cancelled", retryable: false });
      const tokens = run.promptTokens + run.completionTokens;
      if (run.maxTokens !== null && tokens >= run.maxTokens) return err({ code: "BUDGET_EXCEEDED", message: `token budget spent (${tokens} of ${run.maxTokens})`, retryable: false });
      if (run.maxCostUsd !== null && run.costUsd.gte(run.maxCostUsd)) return err({ code: "BUDGET_EXCEEDED", message: `cost budget spent ($${run.costUsd.toFixed(4)} of $${run.maxCostUsd.toFixed(4)})`, retryable: false });
      return ok(undefined);
    },
  };
}

export type RunLlmFactory = (ids: { runId: string; stepId: string }) => LlmClient;
export type RunLlmOverrides = Partial<Pick<LlmConfig, "baseUrl" | "apiKey" | "timeoutMs" | "concurrency" | "prices">> & { retry?: RetryPolicy; signal?: AbortSignal };

let envConfig: LlmConfig | null = null;

/** Step-bound clients on the configured endpoint (tests and benchmarks override the endpoint). */
export function createRunLlmFactory(db: Db, overrides: RunLlmOverrides = {}): RunLlmFactory {
  envConfig ??= readLlmConfig();
  const config = { ...envConfig, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  const baseUrl = config.baseUrl;
  if (!baseUrl) {
    const missing = { code: "NOT_CONFIGURED" as const, message: "OPENAI_BASE_URL is not set: configure an OpenAI-compatible endpoint", retryable: false };
    return () => ({ chat: () => Promise.resolve(err(missing)), embed: () => Promise.resolve(err(missing)) });
  }
  const transport = createOpenAiTransport({ baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutMs });
  const cache = createDbCache(db);
  const limiter = getEndpointLimiter(baseUrl, config.concurrency);
  return (ids) =>
    createLlmClient({
      transport, cache, limiter, prices: config.prices, retry: overrides.retry ?? config.retry,
      recorder: createRunStepRecorder(db, ids),
      retryDeps: { sleep: realSleep, random: Math.random, signal: overrides.signal },
    });
}
