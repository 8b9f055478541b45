import "server-only";
/**
 * Moves a run forward after a step settles: the topic fan-in (selection starts once every judge
 * and topic step is settled), jobs for the subject's pending steps, and the run's final status
 * once nothing is pending or running. Every part is idempotent, so the memo path of a retried
 * job can call it again safely.
 */
import {
  ACTIVE_RUN_STATUSES,
  OPEN_STEP_STATUSES,
  TERMINAL_RUN_STATUSES,
  isActiveRunStatus,
} from "@/lib/core/run";
import type { Db } from "@/lib/db";
import type { JobQueue } from "@/lib/jobs/server/send-job";
import { markRunCallsLost } from "@/lib/runs/server/lost-calls";
import { PIPELINE_STEP_JOB, type StepPayload, stepJobKey } from "../step-job";

export async function enqueueSteps(queue: JobQueue, steps: StepPayload[]) {
  await queue.sendMany(
    PIPELINE_STEP_JOB,
    steps.map((s) => {
      const payload = { runId: s.runId, subjectKey: s.subjectKey, stage: s.stage };
      return { payload, key: stepJobKey(payload) };
    }),
  );
}

async function startSelectionWhenReady(db: Db, runId: string) {
  const open = await db.pipelineStep.count({
    where: { runId, stage: { in: ["judge", "topic"] }, status: { in: [...OPEN_STEP_STATUSES] } },
  });
  if (open > 0) return;
  const mined = await db.pipelineStep.count({ where: { runId, stage: "judge" } });
  if (mined === 0) return; // an ideas run has no mining
  await db.pipelineStep.createMany({
    data: [{ runId, subjectKey: "run", stage: "select", input: {} }],
    skipDuplicates: true,
  });
}

/**
 * True while a mining run's selection fan-in is due but not created yet. The step that settles last
 * creates it right after its own commit; a concurrent step that saw it still open must not declare
 * the run finished in between (that race ended runs as SUCCEEDED before selection ran).
 */
async function selectionStillDue(db: Db, runId: string): Promise<boolean> {
  const run = await db.pipelineRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run || !isActiveRunStatus(run.status)) return false;
  const mined = await db.pipelineStep.count({ where: { runId, stage: "judge" } });
  return mined > 0 && (await db.pipelineStep.count({ where: { runId, stage: "select" } })) === 0;
}

/**
 * Ends a running run only if, in one snapshot, no step is open and no selection fan-in is due.
 * Checked in separate statements, a step could count "nothing open" just before the last topic
 * step created the selection step, then see that selection exists — and end the run before it ran.
 * The selection step is inserted PENDING, so a single snapshot sees it either missing (due) or open.
 */
async function endRunIfSettled(
  db: Db,
  runId: string,
  outcome: { status: "SUCCEEDED" | "FAILED"; now: Date; summary: string | null },
) {
  await db.$executeRaw`
    UPDATE "PipelineRun" SET status = ${outcome.status}::"RunStatus", "finishedAt" = ${outcome.now}, "errorMessage" = ${outcome.summary}
    WHERE id = ${runId} AND status::text = ANY(${[...ACTIVE_RUN_STATUSES]})
      AND NOT EXISTS (SELECT 1 FROM "PipelineStep" WHERE "runId" = ${runId} AND status::text = ANY(${[...OPEN_STEP_STATUSES]}))
      AND (NOT EXISTS (SELECT 1 FROM "PipelineStep" WHERE "runId" = ${runId} AND stage = 'judge')
        OR EXISTS (SELECT 1 FROM "PipelineStep" WHERE "runId" = ${runId} AND stage = 'select'))`;
}

/**
 * A run with failed steps still SUCCEEDs when it built and checked at least one environment (its
 * failures stay visible per step); one that built nothing FAILED, and says why.
 */
async function runOutcome(
  db: Db,
  runId: string,
): Promise<{ status: "SUCCEEDED" | "FAILED"; summary: string | null }> {
  const failed = await db.pipelineStep.count({ where: { runId, status: "FAILED" } });
  if (failed === 0) return { status: "SUCCEEDED", summary: null };
  const steps = `${failed} step${failed === 1 ? "" : "s"} failed`;
  if ((await db.pipelineStep.count({ where: { runId, stage: "quality", status: "SUCCEEDED" } })) > 0)
    return { status: "SUCCEEDED", summary: steps };
  const first = await db.pipelineStep.findFirst({
    where: { runId, status: "FAILED" },
    orderBy: { finishedAt: "asc" },
    select: { stage: true, errorMessage: true },
  });
  return {
    status: "FAILED",
    summary: `${steps} and no environment was built; first (${first?.stage ?? "?"}): ${first?.errorMessage ?? "unknown error"}`,
  };
}

export async function finalizeRunIfDone(db: Db, runId: string) {
  const open = await db.pipelineStep.count({ where: { runId, status: { in: [...OPEN_STEP_STATUSES] } } });
  if (open > 0) return;
  if (await selectionStillDue(db, runId)) return;
  const now = new Date();
  await endRunIfSettled(db, runId, { now, ...(await runOutcome(db, runId)) });
  await markRunCallsLost(db, runId);
  await db.pipelineRun.updateMany({
    where: { id: runId, status: "CANCELLING" },
    data: { status: "CANCELLED", finishedAt: now },
  });
  await db.pipelineRun.updateMany({
    where: { id: runId, status: { in: [...TERMINAL_RUN_STATUSES] }, finishedAt: null },
    data: { finishedAt: now },
  });
}

/**
 * After a chain step committed its successor: the successor's job is all that is due. Nothing can
 * finish the run (the successor is open) and no selection fan-in follows a chain stage, so the
 * general path's five queries are skipped. If the run was stopped meanwhile, the successor's job
 * finds it stopped and cancels the step.
 */
export async function enqueueSuccessor(
  queue: JobQueue,
  step: { runId: string; subjectKey: string },
  stage: string,
) {
  await enqueueSteps(queue, [{ runId: step.runId, subjectKey: step.subjectKey, stage }]);
}

export async function advanceRun(db: Db, queue: JobQueue, runId: string, subjectKey: string, stage: string) {
  const run = await db.pipelineRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (run && isActiveRunStatus(run.status)) {
    await startSelectionWhenReady(db, runId);
    const pending = await db.pipelineStep.findMany({
      where: {
        runId,
        status: "PENDING",
        OR: [{ subjectKey }, { stage: "select" }, ...(stage === "select" ? [{ stage: "state" }] : [])],
      },
      select: { runId: true, subjectKey: true, stage: true },
    });
    await enqueueSteps(queue, pending);
  } else if (run) {
    // A step that finished after the run was stopped may have created successors: close them.
    await cancelPendingSteps(db, runId, `stopped: the run is ${run.status.toLowerCase()}`);
  }
  await finalizeRunIfDone(db, runId);
}

/** Stops a run's remaining work: pending steps are cancelled (running ones finish or stop at their next LLM call). */
export async function cancelPendingSteps(db: Db, runId: string, reason: string) {
  await db.pipelineStep.updateMany({
    where: { runId, status: "PENDING" },
    data: { status: "CANCELLED", errorMessage: reason, finishedAt: new Date() },
  });
}
