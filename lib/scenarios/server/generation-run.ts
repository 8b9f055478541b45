import "server-only";
/**
 * A SCEN_GENERATOR run for one environment version (spec §5): N initial states → one task each →
 * near-duplicate tasks dropped → checklist → one check function per item → Scenario + Validator
 * rows → a PROOF run for the new scenarios. Every stage of every scenario is a memoised
 * PipelineStep, so a killed worker's retry resumes at the first unfinished stage and never pays
 * for an LLM answer twice (the cache covers a step that died mid-way).
 */
import { type Result, err, ok } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db } from "@/lib/db";
import { JobError } from "@/lib/jobs/job-definition";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { createRun, finishRun, isCancelling, startRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
import { forEachLimited } from "@/lib/core/for-each-limited";
import { memoStep } from "@/lib/runs/server/step-memo";
import { type JsonObject, JsonObjectSchema, type SandboxRunner } from "@/lib/sandbox";
import { z } from "zod";
import { dedupTasks } from "../stages/dedup-tasks";
import type { EnvironmentContext, ScenStageDeps } from "../stages/deps";
import { generateCheckFunc } from "../stages/generate-check-func";
import { generateChecklist } from "../stages/generate-checklist";
import { generateInitialState } from "../stages/generate-initial-state";
import { generateTask } from "../stages/generate-task";
import { loadEnvironmentContext, persistScenario } from "./persist-scenario";
import { enqueueProofRun } from "./proof-run";
import { SCEN_GENERATOR_JOB } from "../scenario-jobs";

export const GenerationRunConfigSchema = z.object({
  count: z.number().int().min(1).max(200).default(10),
  model: z.string().min(1),
  checkModel: z.string().min(1).nullable().default(null),
  minTaskWords: z.number().int().min(1).max(500).default(30),
  jaccardThreshold: z.number().min(0).max(1).default(0.8),
  embeddingModel: z.string().min(1).nullable().default(null),
  embeddingThreshold: z.number().min(0).max(1).default(0.92),
  concurrency: z.number().int().min(1).max(32).default(3),
  /** Proof of the new scenarios asks this model for a gold solution (null: only stored/rollout gold). */
  goldModel: z.string().min(1).nullable().default(null),
});
export type GenerationRunConfig = z.infer<typeof GenerationRunConfigSchema>;
export const GenerationRunInputSchema = z.object({
  environmentId: z.string(),
  environmentVersionId: z.string(),
});

export type GenerationRunDeps = {
  sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch">;
  llmFor: RunLlmFactory;
  send?: JobSender;
};

export async function enqueueGenerationRun(
  db: Db,
  send: JobSender,
  input: {
    projectId: string;
    environmentId: string;
    environmentVersionId: string;
    config: z.input<typeof GenerationRunConfigSchema>;
    createdById?: string | null;
  },
) {
  const config = GenerationRunConfigSchema.parse(input.config);
  const run = await createRun(db, {
    projectId: input.projectId,
    kind: "SCEN_GENERATOR",
    name: `Scenarios (${config.count})`,
    config,
    input: { environmentId: input.environmentId, environmentVersionId: input.environmentVersionId },
    createdById: input.createdById,
  });
  await send(SCEN_GENERATOR_JOB, { runId: run.id }, `run:${run.id}`);
  return run;
}

type Ctx = {
  db: Db;
  runId: string;
  env: EnvironmentContext & { versionId: string };
  environmentId: string;
  config: GenerationRunConfig;
  deps: GenerationRunDeps;
  retryable: { count: number };
};
type Drafted = { index: number; initialState: JsonObject; task: string };
const fail = (e: StepError): StepError => ({ code: e.code, message: e.message, retryable: e.retryable });

function stageDeps(ctx: Ctx, stepId: string, salt: string, model = ctx.config.model): ScenStageDeps {
  return {
    llm: ctx.deps.llmFor({ runId: ctx.runId, stepId }),
    sandbox: ctx.deps.sandbox,
    model,
    cacheSalt: `${ctx.runId}:${salt}`,
  };
}

async function step<T>(
  ctx: Ctx,
  subjectKey: string,
  stage: string,
  output: z.ZodType<T>,
  work: (stepId: string) => Promise<Result<T, StepError>>,
): Promise<T | null> {
  const outcome = await memoStep(
    ctx.db,
    { runId: ctx.runId, subjectKey, stage, environmentId: ctx.environmentId },
    output,
    work,
  );
  if (outcome.status === "SUCCEEDED") return outcome.output;
  if (outcome.error.retryable) ctx.retryable.count += 1;
  return null;
}

async function draft(ctx: Ctx, index: number): Promise<Drafted | null> {
  const key = `s${index}`;
  const state = await step(ctx, key, "initial_state", JsonObjectSchema, async (id) => {
    const r = await generateInitialState(ctx.env, stageDeps(ctx, id, `state:${index}`));
    return r.ok ? r : err(fail(r.error));
  });
  if (!state) return null;
  const task = await step(ctx, key, "task", z.string(), async (id) => {
    const r = await generateTask(
      { env: ctx.env, initialState: state, minWords: ctx.config.minTaskWords },
      stageDeps(ctx, id, `task:${index}`),
    );
    return r.ok ? r : err(fail(r.error));
  });
  return task ? { index, initialState: state, task } : null;
}

async function complete(ctx: Ctx, d: Drafted): Promise<string | null> {
  const key = `s${d.index}`;
  const items = await step(ctx, key, "checklist", z.array(z.string()), async (id) => {
    const r = await generateChecklist({ env: ctx.env, ...d }, stageDeps(ctx, id, `checklist:${d.index}`));
    return r.ok ? r : err(fail(r.error));
  });
  if (!items) return null;
  const codes: string[] = [];
  for (const [j, item] of items.entries()) {
    const code = await step(ctx, key, `check_func:${j}`, z.string(), async (id) => {
      const r = await generateCheckFunc(
        { env: ctx.env, ...d, item },
        stageDeps(ctx, id, `check:${d.index}:${j}`, ctx.config.checkModel ?? ctx.config.model),
      );
      return r.ok ? r : err(fail(r.error));
    });
    if (code === null) return null;
    codes.push(code);
  }
  return step(ctx, key, "persist", z.string(), async () =>
    ok(
      await persistScenario(ctx.db, {
        runId: ctx.runId,
        environmentId: ctx.environmentId,
        environmentVersionId: ctx.env.versionId,
        ...d,
        checklist: items,
        codes,
      }),
    ),
  );
}

export async function executeGenerationRun(
  db: Db,
  runId: string,
  deps: GenerationRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> {
  if (!(await startRun(db, runId))) return;
  const run = await db.pipelineRun.findUniqueOrThrow({ where: { id: runId } });
  const config = GenerationRunConfigSchema.parse(run.config);
  const input = GenerationRunInputSchema.parse(run.input);
  const env = await loadEnvironmentContext(db, input.environmentVersionId);
  if (!env)
    return void (await finishRun(db, runId, {
      failedSteps: 1,
      succeededSteps: 0,
      message: "the environment version no longer exists",
    }));
  const ctx: Ctx = {
    db,
    runId,
    env,
    environmentId: input.environmentId,
    config,
    deps,
    retryable: { count: 0 },
  };
  const stop = () => isCancelling(db, runId);
  const drafts: Drafted[] = [];
  await forEachLimited(
    [...Array(config.count).keys()],
    config.concurrency,
    async (i) => {
      const d = await draft(ctx, i);
      if (d) drafts.push(d);
    },
    stop,
  );
  drafts.sort((a, b) => a.index - b.index);
  const kept = await step(ctx, "all", "dedup", z.array(z.number().int()), (id) =>
    dedupDrafts(ctx, id, drafts),
  );
  const keptDrafts = drafts.filter((d) => kept?.includes(d.index));
  const created: string[] = [];
  await forEachLimited(
    keptDrafts,
    config.concurrency,
    async (d) => {
      const id = await complete(ctx, d);
      if (id) created.push(id);
    },
    stop,
  );
  if (ctx.retryable.count > 0 && !opts.finalAttempt)
    throw new JobError(`${ctx.retryable.count} generation step(s) failed and may succeed on retry`, true);
  if (created.length > 0 && deps.send)
    await enqueueProofRun(db, deps.send, {
      projectId: run.projectId,
      scenarioIds: created.sort(),
      environmentId: input.environmentId,
      config: { goldModel: config.goldModel },
      reason: "new scenarios",
    });
  const failed = await db.pipelineStep.count({ where: { runId, status: "FAILED" } });
  await finishRun(db, runId, { failedSteps: failed, succeededSteps: created.length });
}

async function dedupDrafts(
  ctx: Ctx,
  stepId: string,
  drafts: Drafted[],
): Promise<Result<number[], StepError>> {
  const existing = await ctx.db.scenario.findMany({
    where: { environmentId: ctx.environmentId, NOT: { externalId: { startsWith: `gen-${ctx.runId}-` } } },
    select: { id: true, task: true },
  });
  const embedding = ctx.config.embeddingModel
    ? {
        llm: ctx.deps.llmFor({ runId: ctx.runId, stepId }),
        model: ctx.config.embeddingModel,
        threshold: ctx.config.embeddingThreshold,
      }
    : null;
  const verdicts = await dedupTasks(
    drafts.map((d) => ({ index: d.index, task: d.task })),
    existing,
    { jaccardThreshold: ctx.config.jaccardThreshold, embedding },
  );
  if (!verdicts.ok) return err(fail(verdicts.error));
  await ctx.db.pipelineStep.update({ where: { id: stepId }, data: { input: { verdicts: verdicts.value } } });
  return ok(verdicts.value.filter((v) => v.keep).map((v) => v.index));
}
