import "server-only";
/**
 * The `pipeline.step` handler: one stage for one subject of a run. PipelineStep (runId, subjectKey,
 * stage) is the memo — a finished step is never repeated, even when pg-boss re-delivers the job
 * after a worker crash; a step interrupted mid-way re-runs, and the LLM cache makes the calls it
 * had already paid for free. Only the worker loads it (lib/jobs/server/job-handlers.ts), so processes
 * that only enqueue (the web server) never load the sandbox or the stage code.
 */
import { z } from "zod";
import type { Db } from "@/lib/db";
import { ACTIVE_RUN_STATUSES, type StepError, isSettledStepStatus, isStoppedRunStatus } from "@/lib/core/run";
import { JobError } from "@/lib/jobs/job-definition";
import type { JobContext, JobHandler } from "@/lib/jobs/server/job-handler";
import type { JobQueue } from "@/lib/jobs/server/send-job";
import { RunConfigSchema, nextChainStage } from "../pipeline.schema";
import { advanceRun, cancelPendingSteps, enqueueSuccessor, finalizeRunIfDone } from "./advance-run";
import { commitStep } from "./commit-step";
import { computeStep } from "./compute-step";
import { ChainStepInputSchema } from "./stage-spec";
import { createStageDeps } from "./stage-deps";
import { MissingInputError } from "./step-inputs";
import type { PIPELINE_STEP_JOB, StepPayload } from "../step-job";
import { markStepCallsLost } from "@/lib/runs/server/lost-calls";

async function recordFailure(
  db: Db,
  queue: JobQueue,
  step: { id: string; runId: string; subjectKey: string; stage: string; environmentId: string | null },
  error: StepError,
  willRetry: boolean,
) {
  const fields = { errorCode: error.code, errorMessage: error.message, retryable: error.retryable };
  if (willRetry) {
    await db.pipelineStep.update({ where: { id: step.id }, data: { status: "PENDING", ...fields } });
    throw new JobError(`${step.stage} ${step.subjectKey}: ${error.message}`, true);
  }
  const cancelled = error.code === "CANCELLED";
  await db.pipelineStep.update({
    where: { id: step.id },
    data: { status: cancelled ? "CANCELLED" : "FAILED", ...fields, finishedAt: new Date() },
  });
  if (step.environmentId && !cancelled)
    await db.environment.update({ where: { id: step.environmentId }, data: { status: "FAILED" } });
  if (error.code === "BUDGET_EXCEEDED") {
    await db.pipelineRun.updateMany({
      where: { id: step.runId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      data: { status: "BUDGET_EXCEEDED", errorMessage: error.message },
    });
    await cancelPendingSteps(db, step.runId, "stopped: the run's budget is spent");
  }
  await advanceRun(db, queue, step.runId, step.subjectKey, step.stage);
}

export async function runStep(
  db: Db,
  payload: StepPayload,
  ctx: Pick<JobContext, "isFinalAttempt" | "queue" | "signal">,
): Promise<string> {
  const where = { runId_subjectKey_stage: payload };
  const step = await db.pipelineStep.findUnique({ where, include: { run: true } });
  if (!step)
    throw new JobError(`no step ${payload.stage} for ${payload.subjectKey} in run ${payload.runId}`, false);
  if (isSettledStepStatus(step.status)) {
    await advanceRun(db, ctx.queue, step.runId, step.subjectKey, step.stage); // memo: never repeated
    return "memo";
  }
  if (isStoppedRunStatus(step.run.status)) {
    await db.pipelineStep.update({
      where: { id: step.id },
      data: { status: "CANCELLED", finishedAt: new Date() },
    });
    await finalizeRunIfDone(db, step.runId);
    return "cancelled";
  }
  const startedAt = new Date();
  await db.pipelineStep.update({
    where: { id: step.id },
    data: { status: "RUNNING", attempt: { increment: 1 }, startedAt },
  });
  // Calls a killed earlier attempt sent but never completed are paid, answer lost.
  if (step.attempt > 0) await markStepCallsLost(db, step.id);
  if (step.run.status === "QUEUED")
    await db.pipelineRun.updateMany({
      where: { id: step.runId, status: "QUEUED" },
      data: { status: "RUNNING", startedAt },
    });
  const config = RunConfigSchema.parse(step.run.config);
  const salt = ChainStepInputSchema.partial()
    .extend({ cacheSalt: z.string().optional() })
    .safeParse(step.input);
  const deps = createStageDeps(db, { runId: step.runId, stepId: step.id }, config, {
    cacheSalt: salt.success ? salt.data.cacheSalt : undefined,
    signal: ctx.signal,
  });
  let result;
  try {
    result = await computeStep(db, step, config, deps);
  } catch (error) {
    // Missing upstream output is permanent; anything else (database, sandbox host) is worth a retry.
    const permanent = error instanceof MissingInputError || error instanceof z.ZodError;
    result = {
      ok: false as const,
      error: {
        code: permanent ? "INVALID_INPUT" : "INTERNAL",
        message: error instanceof Error ? error.message : String(error),
        retryable: !permanent,
      },
    };
  }
  if (!result.ok && ctx.signal.aborted) {
    // The worker is shutting down: leave the step for another worker instead of cancelling it.
    await db.pipelineStep.update({ where: { id: step.id }, data: { status: "PENDING" } });
    throw new JobError("worker stopping", true);
  }
  if (!result.ok) {
    await recordFailure(db, ctx.queue, step, result.error, result.error.retryable && !ctx.isFinalAttempt);
    return "failed";
  }
  await commitStep(db, step.run, step, result.value, startedAt);
  const next = nextChainStage(step.stage);
  if (next) await enqueueSuccessor(ctx.queue, step, next);
  else await advanceRun(db, ctx.queue, step.runId, step.subjectKey, step.stage);
  return "succeeded";
}

export const handlePipelineStep: JobHandler<typeof PIPELINE_STEP_JOB> = (payload, ctx) =>
  runStep(ctx.db, payload, ctx);
