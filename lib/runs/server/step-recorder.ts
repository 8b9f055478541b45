import "server-only";
/**
 * Records every LLM call of a step (LlmCall) in the order it happens: the request before it is
 * sent (PENDING, with estimated tokens), each retry before it is sent, then the outcome — whose
 * tokens and cost are added to the step and the run in the same statement, so progress and
 * budgets read one consistent total. A call whose answer never got stored stays PENDING and is
 * counted as "paid, answer lost" by lost-calls.ts. The budget check also stops new paid calls once
 * the run is being cancelled.
 */
import { randomUUID } from "node:crypto";
import type { Db, Prisma, RunStatus } from "@/lib/db";
import { err, ok } from "@/lib/core/result";
import type { LlmRecorder } from "@/lib/llm";

type BudgetRow = {
  status: RunStatus;
  promptTokens: number;
  completionTokens: number;
  costUsd: Prisma.Decimal;
  maxTokens: number | null;
  maxCostUsd: Prisma.Decimal | null;
};

const jsonOrNull = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export function createStepRecorder(db: Db, ids: { runId: string; stepId: string }): LlmRecorder {
  return {
    async begin(call) {
      const id = randomUUID();
      await db.$executeRaw`
        INSERT INTO "LlmCall" (id, "runId", "stepId", "cacheKey", model, purpose, request, status, cached, attempts, "promptTokens", "completionTokens", "costUsd", unpriced)
        VALUES (${id}, ${ids.runId}, ${ids.stepId}, ${call.cacheKey}, ${call.model}, ${call.purpose}, ${JSON.stringify(call.request)}::jsonb, 'PENDING', false, 1,
          ${call.estimate.promptTokens}, ${call.estimate.completionTokens}, ${String(call.estimatedCostUsd)}::numeric, ${call.unpriced})`;
      return id;
    },
    async retrying(callId, attempt, log) {
      await db.$executeRaw`UPDATE "LlmCall" SET attempts = GREATEST(attempts, ${attempt}), "attemptLog" = ${JSON.stringify(log)}::jsonb WHERE id = ${callId}`;
    },
    async finish(callId, o) {
      // Idempotent (a retried write after a lost acknowledgement changes nothing): only a PENDING or
      // LOST row is completed, and a LOST row's estimate, already in the totals, is swapped for the
      // real usage.
      const [prompt, completion, cost] = [o.usage.promptTokens, o.usage.completionTokens, String(o.costUsd)];
      await db.$executeRaw`
        WITH old AS (
          SELECT status, "promptTokens" AS p, "completionTokens" AS c, "costUsd" AS u FROM "LlmCall" WHERE id = ${callId} AND status IN ('PENDING', 'LOST') FOR UPDATE
        ), delta AS (
          SELECT ${prompt}::int - CASE WHEN status = 'LOST' THEN p ELSE 0 END AS p, ${completion}::int - CASE WHEN status = 'LOST' THEN c ELSE 0 END AS c,
            ${cost}::numeric - CASE WHEN status = 'LOST' THEN u ELSE 0 END AS u FROM old
        ), call AS (
          UPDATE "LlmCall" SET status = ${o.status}::"LlmCallStatus", response = ${jsonOrNull(o.response)}::jsonb, "promptTokens" = ${prompt}, "completionTokens" = ${completion},
            "costUsd" = ${cost}::numeric, "latencyMs" = ${Math.round(o.latencyMs)}, "errorMessage" = ${o.errorMessage}, rejection = ${o.rejection},
            attempts = GREATEST(attempts, ${o.attempts.length}), "attemptLog" = ${JSON.stringify(o.attempts)}::jsonb
          WHERE id = ${callId} AND EXISTS (SELECT 1 FROM old)
        ), step AS (
          UPDATE "PipelineStep" s SET "promptTokens" = s."promptTokens" + d.p, "completionTokens" = s."completionTokens" + d.c, "costUsd" = s."costUsd" + d.u FROM delta d WHERE s.id = ${ids.stepId}
        )
        UPDATE "PipelineRun" r SET "promptTokens" = r."promptTokens" + d.p, "completionTokens" = r."completionTokens" + d.c, "costUsd" = r."costUsd" + d.u FROM delta d WHERE r.id = ${ids.runId}`;
    },
    async hit(h) {
      // A hit costs nothing: one insert, no totals to touch.
      await db.$executeRaw`
        INSERT INTO "LlmCall" (id, "runId", "stepId", "cacheKey", model, purpose, request, response, status, rejection, cached, attempts, "promptTokens", "completionTokens", "costUsd", "latencyMs")
        VALUES (${randomUUID()}, ${ids.runId}, ${ids.stepId}, ${h.cacheKey}, ${h.model}, ${h.purpose}, ${JSON.stringify(h.request)}::jsonb, ${jsonOrNull(h.response)}::jsonb,
          ${h.rejection ? "REJECTED" : "ACCEPTED"}::"LlmCallStatus", ${h.rejection}, true, 0, ${h.usage.promptTokens}, ${h.usage.completionTokens}, 0, 0)`;
    },
    async checkBudget() {
      // Raw: it runs before every paid call, and a model query costs about twice the CPU.
      const [run] = await db.$queryRaw<
        BudgetRow[]
      >`SELECT status, "promptTokens", "completionTokens", "costUsd", "maxTokens", "maxCostUsd" FROM "PipelineRun" WHERE id = ${ids.runId}`;
      if (!run) return err({ code: "CANCELLED", message: "the run no longer exists", retryable: false });
      if (run.status === "CANCELLING" || run.status === "CANCELLED")
        return err({ code: "CANCELLED", message: "the run was cancelled", retryable: false });
      const tokens = run.promptTokens + run.completionTokens;
      if (run.maxTokens !== null && tokens >= run.maxTokens)
        return err({
          code: "BUDGET_EXCEEDED",
          message: `token budget spent (${tokens} of ${run.maxTokens})`,
          retryable: false,
        });
      if (run.maxCostUsd !== null && run.costUsd.gte(run.maxCostUsd))
        return err({
          code: "BUDGET_EXCEEDED",
          message: `cost budget spent ($${run.costUsd.toFixed(4)} of $${run.maxCostUsd.toFixed(4)})`,
          retryable: false,
        });
      return ok(undefined);
    },
  };
}
