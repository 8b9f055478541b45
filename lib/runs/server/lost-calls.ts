import "server-only";
/**
 * "Paid, answer lost": a call recorded as sent whose answer was never stored (the worker was
 * killed, or the database stayed away longer than the client would hold the answer). Once nobody
 * can still complete it — its step is being taken again, or its run ended — it becomes LOST and
 * its estimated tokens and cost join the step's and the run's totals, so the cost shown covers
 * every request the endpoint may bill. If the old worker does complete it after all, the recorder
 * swaps the estimate for the real usage (step-recorder.ts).
 */
import type { Db } from "@/lib/db";

export async function markStepCallsLost(db: Db, stepId: string): Promise<number> {
  return db.$executeRaw`
    WITH lost AS (
      UPDATE "LlmCall" SET status = 'LOST' WHERE "stepId" = ${stepId} AND status = 'PENDING'
      RETURNING "runId", "promptTokens", "completionTokens", "costUsd"
    ), total AS (
      SELECT max("runId") AS "runId", COALESCE(sum("promptTokens"), 0)::int AS p, COALESCE(sum("completionTokens"), 0)::int AS c, COALESCE(sum("costUsd"), 0) AS u, count(*) AS n FROM lost
    ), step AS (
      UPDATE "PipelineStep" s SET "promptTokens" = s."promptTokens" + t.p, "completionTokens" = s."completionTokens" + t.c, "costUsd" = s."costUsd" + t.u FROM total t WHERE s.id = ${stepId} AND t.n > 0
    )
    UPDATE "PipelineRun" r SET "promptTokens" = r."promptTokens" + t.p, "completionTokens" = r."completionTokens" + t.c, "costUsd" = r."costUsd" + t.u FROM total t WHERE r.id = t."runId" AND t.n > 0`;
}

/** At the end of a run, every call still PENDING is lost. */
export async function markRunCallsLost(db: Db, runId: string): Promise<void> {
  const steps = await db.$queryRaw<
    { stepId: string }[]
  >`SELECT DISTINCT "stepId" FROM "LlmCall" WHERE "runId" = ${runId} AND status = 'PENDING' AND "stepId" IS NOT NULL`;
  for (const s of steps) await markStepCallsLost(db, s.stepId);
}
