import "server-only";
/**
 * Status transitions of a PipelineRun shared by the scenario-generation, proof and rollout jobs:
 * QUEUED → RUNNING → SUCCEEDED | FAILED | CANCELLED | BUDGET_EXCEEDED. A run whose steps partly
 * failed still SUCCEEDs when anything was produced; its failed steps stay visible per step.
 */
import { isTerminalRunStatus } from "@/lib/core/run";
import type { Db, Prisma, RunKind } from "@/lib/db";
import { markRunCallsLost } from "./lost-calls";

export async function createRun(
  db: Db,
  data: {
    projectId: string;
    kind: RunKind;
    name: string;
    config: unknown;
    input: unknown;
    createdById?: string | null;
    maxCostUsd?: number | null;
  },
) {
  return db.pipelineRun.create({
    data: {
      projectId: data.projectId,
      kind: data.kind,
      name: data.name,
      createdById: data.createdById ?? null,
      config: data.config as Prisma.InputJsonValue,
      input: data.input as Prisma.InputJsonValue,
      maxCostUsd: data.maxCostUsd ?? null,
    },
  });
}

/** Marks the run RUNNING (again, on resume). Returns false when it is already terminal or cancelled. */
export async function startRun(db: Db, runId: string): Promise<boolean> {
  const run = await db.pipelineRun.findUnique({
    where: { id: runId },
    select: { status: true, startedAt: true },
  });
  if (!run || isTerminalRunStatus(run.status)) return false;
  if (run.status === "CANCELLING") {
    await db.pipelineRun.update({
      where: { id: runId },
      data: { status: "CANCELLED", finishedAt: new Date() },
    });
    return false;
  }
  await db.pipelineRun.update({
    where: { id: runId },
    data: { status: "RUNNING", startedAt: run.startedAt ?? new Date() },
  });
  return true;
}

export async function isCancelling(db: Db, runId: string): Promise<boolean> {
  const run = await db.pipelineRun.findUnique({ where: { id: runId }, select: { status: true } });
  return !run || run.status === "CANCELLING" || run.status === "CANCELLED";
}

export async function finishRun(
  db: Db,
  runId: string,
  outcome: { failedSteps: number; succeededSteps: number; budgetExceeded?: boolean; message?: string },
) {
  const cancelling = await isCancelling(db, runId);
  const status = cancelling
    ? "CANCELLED"
    : outcome.budgetExceeded
      ? "BUDGET_EXCEEDED"
      : outcome.succeededSteps === 0 && outcome.failedSteps > 0
        ? "FAILED"
        : "SUCCEEDED";
  // Name the first failure: "3 step(s) failed" alone sends the reader hunting through steps.
  const firstFailure =
    outcome.failedSteps > 0 && !outcome.message
      ? await db.pipelineStep.findFirst({
          where: { runId, status: "FAILED" },
          orderBy: { finishedAt: "asc" },
          select: { stage: true, errorMessage: true },
        })
      : null;
  const errorMessage =
    outcome.message ??
    (outcome.failedSteps > 0
      ? `${outcome.failedSteps} step(s) failed${firstFailure ? `; first (${firstFailure.stage}): ${firstFailure.errorMessage ?? "unknown error"}` : ""}`
      : null);
  await db.pipelineRun.update({
    where: { id: runId },
    data: { status, finishedAt: new Date(), errorMessage },
  });
  await markRunCallsLost(db, runId);
  return status;
}
