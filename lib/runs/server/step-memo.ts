import "server-only";
/**
 * PipelineStep as the memo of a run's work, for runs that are not SkelBuilder's (scenario
 * generation, proof, rollouts). `(runId, subjectKey, stage)` is unique, so a resumed or duplicate
 * job finds finished steps and returns their stored output instead of doing (and paying for) the
 * work again. A step left RUNNING by a killed worker is simply taken again. The stored output is
 * JSON from an earlier process: it is parsed with the step's schema, and one that no longer parses
 * (a shape from an older version) is recomputed rather than trusted.
 */
import type { z } from "zod";
import type { Db, Prisma } from "@/lib/db";
import type { Result } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import { markStepCallsLost } from "./lost-calls";

export type StepKey = { runId: string; subjectKey: string; stage: string; environmentId?: string | null };
export type StepOutcome<T> =
  { status: "SUCCEEDED"; output: T; reused: boolean } | { status: "FAILED"; error: StepError };

/** Runs `work` for the step unless it already succeeded; records status, output, error and timing. */
export async function memoStep<T>(
  db: Db,
  key: StepKey,
  output: z.ZodType<T>,
  work: (stepId: string) => Promise<Result<T, StepError>>,
): Promise<StepOutcome<T>> {
  const step = await db.pipelineStep.upsert({
    where: { runId_subjectKey_stage: { runId: key.runId, subjectKey: key.subjectKey, stage: key.stage } },
    create: {
      runId: key.runId,
      subjectKey: key.subjectKey,
      stage: key.stage,
      environmentId: key.environmentId ?? null,
    },
    update: {},
  });
  if (step.status === "SUCCEEDED") {
    const stored = output.safeParse(step.output);
    if (stored.success) return { status: "SUCCEEDED", output: stored.data, reused: true };
  }
  const started = new Date();
  await db.pipelineStep.update({
    where: { id: step.id },
    data: {
      status: "RUNNING",
      attempt: { increment: 1 },
      startedAt: started,
      errorCode: null,
      errorMessage: null,
      retryable: null,
    },
  });
  if (step.attempt > 0) await markStepCallsLost(db, step.id);
  let result: Result<T, StepError>;
  try {
    result = await work(step.id);
  } catch (error) {
    // An unexpected throw (bug, lost connection) is recorded and treated as retryable.
    result = {
      ok: false,
      error: {
        code: "INTERNAL",
        message: error instanceof Error ? error.message : String(error),
        retryable: true,
      },
    };
  }
  const finishedAt = new Date();
  const timing = { finishedAt, durationMs: finishedAt.getTime() - started.getTime() };
  if (result.ok) {
    await db.pipelineStep.update({
      where: { id: step.id },
      data: { status: "SUCCEEDED", output: (result.value ?? null) as Prisma.InputJsonValue, ...timing },
    });
    return { status: "SUCCEEDED", output: result.value, reused: false };
  }
  const { code, message, retryable } = result.error;
  await db.pipelineStep.update({
    where: { id: step.id },
    data: { status: "FAILED", errorCode: code, errorMessage: message, retryable, ...timing },
  });
  return { status: "FAILED", error: result.error };
}
