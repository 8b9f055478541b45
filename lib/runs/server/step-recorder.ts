/**
 * Records every LLM call of a step (LlmCall) and adds its tokens and cost to the step and the run
 * in the same transaction, so progress and budgets read one consistent total. The budget check
 * also stops new paid calls once the run is being cancelled.
 */
import type { Db, Prisma } from "@/lib/db";
import { err, ok } from "@/lib/core/result";
import type { LlmRecorder } from "@/lib/llm";

export function createStepRecorder(db: Db, ids: { runId: string; stepId: string }): LlmRecorder {
  return {
    async record(call) {
      const tokens = { promptTokens: { increment: call.cached ? 0 : call.usage.promptTokens }, completionTokens: { increment: call.cached ? 0 : call.usage.completionTokens }, costUsd: { increment: call.costUsd } };
      await db.$transaction([
        db.llmCall.create({
          data: {
            runId: ids.runId, stepId: ids.stepId, cacheKey: call.cacheKey, model: call.model, purpose: call.purpose,
            request: call.request as Prisma.InputJsonValue, response: (call.response ?? undefined),
            cached: call.cached, promptTokens: call.usage.promptTokens, completionTokens: call.usage.completionTokens,
            costUsd: call.costUsd, latencyMs: call.latencyMs, errorMessage: call.errorMessage, attempts: call.attempts,
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
