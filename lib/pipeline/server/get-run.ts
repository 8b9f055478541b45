import "server-only";
/**
 * Read models for the runs pages, the launch panel and the CLI: progress per stage, cost, failures,
 * environments, topics, and one step's artifacts (input, output, every LLM call with prompt and raw
 * response). getRunProgress is the one progress query for every kind of run.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { isTerminalRunStatus } from "@/lib/core/run";
import type { AttemptEntry } from "@/lib/llm";
import type { Db } from "@/lib/db";
import { getLlmAccounting, getLlmProblems } from "@/lib/runs/server/llm-accounting";
import { STAGES } from "../pipeline.schema";

import type { StageProgressView } from "../run-view.schema";

export type StageProgress = StageProgressView;

const ConfigModelsSchema = z.object({ models: z.record(z.string(), z.string().nullable()) });
const GenerationModelsSchema = z.object({ model: z.string(), goldModel: z.string().optional() });

/** The model names a run's config names, whatever its kind (for labels, e.g. the demo's). */
function modelsOf(config: unknown): string[] {
  const pipeline = ConfigModelsSchema.safeParse(config);
  const names = pipeline.success
    ? Object.values(pipeline.data.models)
    : [GenerationModelsSchema.safeParse(config).data].flatMap((c) => (c ? [c.model, c.goldModel] : []));
  return [...new Set(names.filter((n): n is string => typeof n === "string" && n !== ""))];
}

export async function getRunProgress(db: Db, runId: string) {
  const run = await db.pipelineRun.findUnique({ where: { id: runId } });
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const [counts, failures, environments, topics, steps, llm, llmProblems] = await Promise.all([
    db.pipelineStep.groupBy({ by: ["stage", "status"], where: { runId }, _count: { _all: true } }),
    db.pipelineStep.findMany({
      where: { runId, errorMessage: { not: null } },
      orderBy: { finishedAt: "desc" },
      take: 100,
      select: {
        id: true,
        stage: true,
        subjectKey: true,
        status: true,
        errorCode: true,
        errorMessage: true,
        retryable: true,
        attempt: true,
      },
    }),
    db.environment.findMany({
      where: { runId },
      orderBy: { slug: "asc" },
      select: {
        id: true,
        name: true,
        status: true,
        toolCount: true,
        slug: true,
        _count: { select: { scenarios: true } },
      },
    }),
    db.environmentTopic.findMany({ where: { runId }, orderBy: { summary: "asc" } }),
    db.pipelineStep.findMany({
      where: { runId },
      orderBy: [{ subjectKey: "asc" }, { queuedAt: "asc" }],
      select: {
        id: true,
        stage: true,
        subjectKey: true,
        status: true,
        environmentId: true,
        attempt: true,
        durationMs: true,
        promptTokens: true,
        completionTokens: true,
        costUsd: true,
      },
    }),
    getLlmAccounting(db, runId),
    getLlmProblems(db, runId),
  ]);
  const stages: StageProgress[] = STAGES.map((stage) => {
    const of = (status: string) =>
      counts.find((c) => c.stage === stage && c.status === status)?._count._all ?? 0;
    const p = {
      stage,
      pending: of("PENDING"),
      running: of("RUNNING"),
      succeeded: of("SUCCEEDED") + of("SKIPPED"),
      failed: of("FAILED"),
      cancelled: of("CANCELLED"),
    };
    return { ...p, total: p.pending + p.running + p.succeeded + p.failed + p.cancelled };
  }).filter((s) => s.total > 0);
  // Every stage of any run kind (scenario and rollout stages included), raw step statuses.
  const stepCounts: Record<string, Record<string, number>> = {};
  for (const c of counts) (stepCounts[c.stage] ??= {})[c.status] = c._count._all;
  return {
    // A budget stop sets its status at once but still has steps settling; the run is over (and
    // pollers may stop) only once finalizeRunIfDone has stamped finishedAt.
    run: {
      ...run,
      costUsd: Number(run.costUsd),
      maxCostUsd: run.maxCostUsd === null ? null : Number(run.maxCostUsd),
      isTerminal: isTerminalRunStatus(run.status) && run.finishedAt !== null,
      models: modelsOf(run.config),
    },
    stages,
    stepCounts,
    failures,
    environments: environments.map(({ _count, ...e }) => ({ ...e, scenarioCount: _count.scenarios })),
    topics,
    steps: steps.map((s) => ({ ...s, costUsd: Number(s.costUsd) })),
    llm,
    llmProblems,
  };
}
export type RunProgress = Awaited<ReturnType<typeof getRunProgress>>;

const SUMMARY_FIELDS = [
  "id",
  "kind",
  "status",
  "errorMessage",
  "costUsd",
  "promptTokens",
  "completionTokens",
  "config",
  "input",
  "createdAt",
  "finishedAt",
] as const;

/** The launch panel's view of a run: status, cost and step counts by stage and status. */
export function toRunSummary({ run, stepCounts }: RunProgress) {
  const fields = Object.fromEntries(SUMMARY_FIELDS.map((key) => [key, run[key]]));
  // Each key of SUMMARY_FIELDS was copied from `run` above.
  return { ...(fields as Pick<RunProgress["run"], (typeof SUMMARY_FIELDS)[number]>), stages: stepCounts };
}

export async function listRuns(db: Db, projectId: string, take = 50) {
  const runs = await db.pipelineRun.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    take,
    include: { _count: { select: { environments: true, steps: true } } },
  });
  return runs.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    kind: r.kind,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    costUsd: Number(r.costUsd),
    tokens: r.promptTokens + r.completionTokens,
    environments: r._count.environments,
    steps: r._count.steps,
    models: modelsOf(r.config),
  }));
}

export async function getStepArtifacts(db: Db, stepId: string) {
  const step = await db.pipelineStep.findUnique({
    where: { id: stepId },
    include: { llmCalls: { orderBy: { createdAt: "asc" } } },
  });
  if (!step) throw new AppError("NOT_FOUND", "step not found");
  return {
    ...step,
    costUsd: Number(step.costUsd),
    llmCalls: step.llmCalls.map((c) => ({
      id: c.id,
      model: c.model,
      purpose: c.purpose,
      cached: c.cached,
      attempts: c.attempts,
      status: c.status,
      rejection: c.rejection,
      attemptLog: c.attemptLog as AttemptEntry[],
      request: c.request,
      response: c.response,
      promptTokens: c.promptTokens,
      completionTokens: c.completionTokens,
      costUsd: Number(c.costUsd),
      latencyMs: c.latencyMs,
      errorMessage: c.errorMessage,
      createdAt: c.createdAt,
    })),
  };
}
export type StepArtifacts = Awaited<ReturnType<typeof getStepArtifacts>>;
