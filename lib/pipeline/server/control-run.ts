import "server-only";
/**
 * Operator controls: cancel a run, and re-run one step of one subject (with its downstream
 * steps) — optionally "fresh", bypassing the LLM cache.
 */
import type { JobQueue } from "@/lib/jobs/server/send-job";
import { AppError } from "@/lib/core/errors";
import { isActiveRunStatus } from "@/lib/core/run";
import type { Db, Prisma } from "@/lib/db";
import { chainStagesAfter } from "../pipeline.schema";
import { cancelPendingSteps, enqueueSteps, finalizeRunIfDone } from "./advance-run";

export async function cancelRun(db: Db, runId: string) {
  const run = await db.pipelineRun.findUnique({ where: { id: runId } });
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  if (!isActiveRunStatus(run.status))
    throw new AppError("CONFLICT", `the run is already ${run.status.toLowerCase()}`);
  await db.pipelineRun.update({
    where: { id: runId },
    data: { status: "CANCELLING", cancelRequestedAt: new Date() },
  });
  await cancelPendingSteps(db, runId, "cancelled by the operator");
  await finalizeRunIfDone(db, runId);
}

export async function rerunStep(
  db: Db,
  queue: JobQueue,
  request: { runId: string; subjectKey: string; stage: string; fresh: boolean },
) {
  const step = await db.pipelineStep.findUnique({
    where: {
      runId_subjectKey_stage: { runId: request.runId, subjectKey: request.subjectKey, stage: request.stage },
    },
  });
  if (!step) throw new AppError("NOT_FOUND", "step not found");
  if (step.status === "RUNNING" || step.status === "PENDING")
    throw new AppError("CONFLICT", "the step is still queued or running");
  const downstream = chainStagesAfter(step.stage);
  const input = {
    ...(step.input as Prisma.JsonObject),
    ...(request.fresh ? { cacheSalt: `rerun-${Date.now()}` } : {}),
  };
  await db.$transaction([
    db.pipelineStep.update({
      where: { id: step.id },
      data: {
        status: "PENDING",
        input,
        output: undefined,
        errorCode: null,
        errorMessage: null,
        retryable: null,
        finishedAt: null,
      },
    }),
    // Later steps of the chain are rebuilt from the new output once it exists.
    db.pipelineStep.deleteMany({
      where: { runId: step.runId, subjectKey: step.subjectKey, stage: { in: downstream } },
    }),
    db.pipelineRun.update({
      where: { id: step.runId },
      data: { status: "RUNNING", finishedAt: null, errorMessage: null, cancelRequestedAt: null },
    }),
    ...(step.environmentId
      ? [db.environment.update({ where: { id: step.environmentId }, data: { status: "GENERATING" } })]
      : []),
  ]);
  await enqueueSteps(queue, [step]);
}
