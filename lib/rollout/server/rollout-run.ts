import "server-only";
/**
 * A ROLLOUT run: k rollouts per scenario per model, one PipelineStep ("rollout",
 * "<scenario>:<index>") each, memoised so a killed worker's retry resumes where it stopped. The
 * LLM cache salt is the step's identity, so a resumed rollout replays its paid turns from the cache
 * and the k rollouts of a scenario are still k different samples. The run snapshots its prices
 * when it is enqueued; a cost budget on a model without a price is refused then, before any write.
 */
import { type Result, err, ok } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db, Prisma } from "@/lib/db";
import { PriceTableSchema, getLlmConfig, requirePricesForBudget } from "@/lib/llm";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { type RunKindSpec, executeRun } from "@/lib/runs/server/execute-run";
import { createRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
import type { SandboxRunner } from "@/lib/sandbox";
import { loadScenarioSubject } from "@/lib/scenarios/server/load-proof-subject";
import { z } from "zod";
import {
  type RolloutRecord,
  type TrajectoryMessages,
  RewardPolicySchema,
  RolloutModeSchema,
  SftFilterSchema,
  applySftFilter,
  runRollout,
} from "..";
import { ROLLOUT_JOB } from "../rollout-job";

export const RolloutRunConfigSchema = z.object({
  mode: RolloutModeSchema.default("non_conversational"),
  models: z.array(z.string().min(1)).min(1),
  userModel: z.string().min(1).nullable().default(null),
  k: z.number().int().min(1).max(1024).default(1), // the per-run ceiling is ROLLOUT_MAX_K
  maxSteps: z.number().int().min(1).max(200).nullable().default(null),
  temperature: z.number().min(0).max(2).default(0.7),
  concurrency: z.number().int().min(1).max(64).default(4),
  policy: RewardPolicySchema.default({ onTruncated: "zero", onCrash: "zero" }),
  sft: SftFilterSchema.default(SftFilterSchema.parse({})),
  /** USD per million tokens, snapshotted from LLM_PRICES when the run is enqueued. */
  prices: PriceTableSchema.default({}),
});
export type RolloutRunConfig = z.infer<typeof RolloutRunConfigSchema>;
export const RolloutRunInputSchema = z.object({
  scenarioIds: z.array(z.string()).min(1),
  environmentId: z.string().optional(),
});

/** What a rollout step stores as its output. */
const RolloutStepOutputSchema = z.object({ trajectoryId: z.string(), reward: z.number() });

export type RolloutRunDeps = { sandbox: Pick<SandboxRunner, "load" | "runChecks">; llmFor: RunLlmFactory };
type Subject = { scenarioId: string; rolloutIndex: number; model: string };

export async function enqueueRolloutRun(
  db: Db,
  send: JobSender,
  input: {
    projectId: string;
    scenarioIds: string[];
    environmentId?: string;
    config: z.input<typeof RolloutRunConfigSchema>;
    createdById?: string | null;
    maxCostUsd?: number | null;
  },
) {
  const parsed = RolloutRunConfigSchema.parse(input.config);
  const config = { ...parsed, prices: { ...getLlmConfig().prices, ...parsed.prices } };
  requirePricesForBudget(config.prices, [...config.models, config.userModel], input.maxCostUsd);
  const run = await createRun(db, {
    projectId: input.projectId,
    kind: "ROLLOUT",
    name: `Rollouts: ${input.scenarioIds.length} scenarios × ${config.models.length} model(s) × ${config.k}`,
    config,
    input: { scenarioIds: input.scenarioIds, environmentId: input.environmentId },
    createdById: input.createdById,
    maxCostUsd: input.maxCostUsd,
  });
  await send(ROLLOUT_JOB, { runId: run.id }, `run:${run.id}`);
  return run;
}

export function rolloutSubjects(scenarioIds: string[], config: RolloutRunConfig): Subject[] {
  return scenarioIds.flatMap((scenarioId) =>
    config.models.flatMap((model, m) =>
      Array.from({ length: config.k }, (_, i) => ({ scenarioId, model, rolloutIndex: m * config.k + i })),
    ),
  );
}

/** The ROLLOUT run kind: one memoised "rollout" step per subject; a spent budget stops the run. */
const rolloutRun = (
  deps: RolloutRunDeps,
): RunKindSpec<RolloutRunConfig, z.infer<typeof RolloutRunInputSchema>, void> => ({
  stepsNoun: "rollout(s)",
  configSchema: RolloutRunConfigSchema,
  inputSchema: RolloutRunInputSchema,
  concurrency: (config) => config.concurrency,
  stopsOnBudget: true,
  execute: ({ db, runId, config, input, step, forEach }) =>
    forEach(rolloutSubjects(input.scenarioIds, config), async (subject) => {
      await step(
        { subjectKey: `${subject.scenarioId}:${subject.rolloutIndex}`, stage: "rollout" },
        RolloutStepOutputSchema,
        (stepId) => rolloutStep(db, runId, stepId, subject, config, deps),
      );
    }),
});

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export const executeRolloutRun = (
  db: Db,
  runId: string,
  deps: RolloutRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> => executeRun(db, runId, rolloutRun(deps), opts);

async function rolloutStep(
  db: Db,
  runId: string,
  stepId: string,
  subject: Subject,
  config: RolloutRunConfig,
  deps: RolloutRunDeps,
): Promise<Result<z.infer<typeof RolloutStepOutputSchema>, StepError>> {
  const s = await loadScenarioSubject(db, subject.scenarioId);
  if (!s)
    return err({ code: "NOT_FOUND", message: `scenario ${subject.scenarioId} not found`, retryable: false });
  await db.pipelineStep.update({
    where: { id: stepId },
    data: { environmentId: s.environmentId, input: { ...subject } },
  });
  const llm = deps.llmFor({ runId, stepId, prices: config.prices });
  const result = await runRollout(
    {
      mode: config.mode,
      task: s.task,
      initialState: s.initialState,
      checks: s.checks.map((c) => c.code),
      model: subject.model,
      userModel: config.userModel ?? undefined,
      maxSteps: config.maxSteps ?? undefined,
      temperature: config.temperature,
      policy: config.policy,
      env: {
        source: s.source,
        className: s.className,
        tools: s.tools,
        introduction: s.introduction,
        rules: s.rules,
      },
      cacheSalt: `rollout:${runId}:${subject.scenarioId}:${subject.rolloutIndex}`,
    },
    { llm, sandbox: deps.sandbox },
  );
  if (!result.ok)
    return err({
      code: result.error.code,
      message: `${result.error.source}: ${result.error.message}`,
      retryable: result.error.retryable,
    });
  const verdict = applySftFilter({ mode: config.mode, ...result.value }, config.sft);
  const ids = { runId, scenarioId: s.scenarioId, rolloutIndex: subject.rolloutIndex };
  const data = trajectoryData(result.value, {
    environmentVersionId: s.environmentVersionId,
    validatorVersionIds: s.checks.map((c) => c.validatorVersionId),
    model: subject.model,
    mode: config.mode,
    sftPass: verdict.pass,
    flagReason: verdict.reasons.join("; ") || null,
  });
  // Upsert: a worker killed after writing the trajectory but before closing the step rewrites it.
  const row = await db.trajectory.upsert({
    where: { runId_scenarioId_rolloutIndex: ids },
    create: { ...ids, ...data },
    update: data,
  });
  return ok({ trajectoryId: row.id, reward: row.reward });
}

const STATUS = {
  agent_replied: "COMPLETED",
  user_stopped: "COMPLETED",
  step_limit: "TRUNCATED",
  crashed: "CRASHED",
} as const;

function trajectoryData(
  r: RolloutRecord,
  meta: {
    environmentVersionId: string;
    validatorVersionIds: string[];
    model: string;
    mode: string;
    sftPass: boolean;
    flagReason: string | null;
  },
) {
  const json = (v: unknown) => v as Prisma.InputJsonValue;
  return {
    ...meta,
    validatorVersionIds: json(meta.validatorVersionIds),
    messages: json({
      agent: r.messages,
      user: r.userMessages,
      endReason: r.endReason,
      finalText: r.finalText,
      score: r.score,
    } satisfies TrajectoryMessages),
    steps: json(r.steps),
    finalState: json(r.finalState ?? {}),
    checkResults: json(r.checkResults),
    reward: r.reward,
    status: STATUS[r.endReason],
    stepCount: r.stepCount,
  };
}
