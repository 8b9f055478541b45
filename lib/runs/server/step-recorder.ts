/**
 * Records every LLM call of a step (LlmCall) and adds its tokens and cost to the step and the run
 * in one statement, so progress and budgets read one consistent total. The budget check
 * also stops new paid calls once the run is being cancelled.
 */
import { randomUUID } from "node:crypto";
import type { Db, Prisma, RunStatus } from "@/lib/db";
import { err, ok } from "@/lib/core/result";
import type { LlmRecorder } from "@/lib/llm";

type BudgetRow = { status: RunStatus; promptTokens: number; completionTokens: number; costUsd: Prisma.Decimal; maxTokens: number | null; maxCostUsd: Prisma.Decimal | null };

export function createStepRecorder(db: Db, ids: { runId: string; stepId: string }): LlmRecorder {
  return {
    async record(call) {
      // One statement (a transaction of three round trips before): it runs after every LLM call, on
      // the path between one call of a step and the next, and holds the run's row lock until it ends.
      const [prompt, completion] = call.cached ? [0, 0] : [call.usage.promptTokens, call.usage.completionTokens];
      const cost = String(call.costUsd);
      const response = call.response === null || call.response === undefined ? null : JSON.stringify(call.response);
      await db.$executeRaw`
        WITH call AS (
          INSERT INTO "LlmCall" (id, "runId", "stepId", "cacheKey", model, purpose, request, response, cached, "promptTokens", "completionTokens", "costUsd", "latencyMs", "errorMessage", attempts)
          VALUES (${randomUUID()}, ${ids.runId}, ${ids.stepId}, ${call.cacheKey}, ${call.model}, ${call.purpose}, ${JSON.stringify(call.request)}::jsonb, ${response}::jsonb, ${call.cached},
            ${call.usage.promptTokens}, ${call.usage.completionTokens}, ${cost}::numeric, ${Math.round(call.latencyMs)}, ${call.errorMessage}, ${call.attempts})
        ), step AS (
          UPDATE "PipelineStep" SET "promptTokens" = "promptTokens" + ${prompt}, "completionTokens" = "completionTokens" + ${completion}, "costUsd" = "costUsd" + ${cost}::numeric WHERE id = ${ids.stepId}
        )
        UPDATE "PipelineRun" SET "promptTokens" = "promptTokens" + ${prompt}, "completionTokens" = "completionTokens" + ${completion}, "costUsd" = "costUsd" + ${cost}::numeric WHERE id = ${ids.runId}`;
    },
    async checkBudget() {
      // Raw: it runs before every paid call, and a model query costs about twice the CPU.
      const [run] = await db.$queryRaw<BudgetRow[]>`SELECT status, "promptTokens", "completionTokens", "costUsd", "maxTokens", "maxCostUsd" FROM "PipelineRun" WHERE id = ${ids.runId}`;
      if (!run) return err({ code: "CANCELLED", message: "the run no longer exists", retryable: false });
      if (run.status === "CANCELLING" || run.status === "CANCELLED") return err({ code: "CANCELLED", message: "the run was cancelled", retryable: false });
      const tokens = run.promptTokens + run.completionTokens;
      if (run.maxTokens !== null && tokens >= run.maxTokens) return err({ code: "BUDGET_EXCEEDED", message: `token budget spent (${tokens} of ${run.maxTokens})`, retryable: false });
      if (run.maxCostUsd !== null && run.costUsd.gte(run.maxCostUsd)) return err({ code: "BUDGET_EXCEEDED", message: `cost budget spent ($${run.costUsd.toFixed(4)} of $${run.maxCostUsd.toFixed(4)})`, retryable: false });
      return ok(undefined);
    },
  };
}
