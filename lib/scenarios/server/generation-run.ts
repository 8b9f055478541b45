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
import type { JobSender } from "@/lib/jobs/server/send-job";
import { type RunKindSpec, type RunOutcome, type RunScope, executeRun } from "@/lib/runs/server/execute-run";
import { createRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
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

type GenerationRunInput = z.infer<typeof GenerationRunInputSchema>;
type Ctx = {
  run: RunScope<GenerationRunConfig, GenerationRunInput>;
  env: EnvironmentContext & { versionId: string };
  deps: GenerationRunDeps;
};
type Drafted = { index: number; initialState: JsonObject; task: string };
const fail = (e: StepError): StepError => ({ code: e.code, message: e.message, retryable: e.retryable });

function stageDeps(ctx: Ctx, stepId: string, salt: string, model = ctx.run.config.model): ScenStageDeps {
  return {
    llm: ctx.deps.llmFor({ runId: ctx.run.runId, stepId }),
    sandbox: ctx.deps.sandbox,
    model,
    cacheSalt: `${ctx.run.runId}:${salt}`,
  };
}

/** A memoised step of one scenario (or of the whole run), recorded against the environment. */
const step = <T>(
  ctx: Ctx,
  subjectKey: string,
  stage: string,
  output: z.ZodType<T>,
  work: (stepId: string) => Promise<Result<T, StepError>>,
): Promise<T | null> =>
  ctx.run.step({ subjectKey, stage, environmentId: ctx.run.input.environmentId }, output, work);

async function draft(ctx: Ctx, index: number): Promise<Drafted | null> {
  const key = `s${index}`;
  const state = await step(ctx, key, "initial_state", JsonObjectSchema, async (id) => {
    const r = await generateInitialState(ctx.env, stageDeps(ctx, id, `state:${index}`));
    return r.ok ? r : err(fail(r.error));
  });
  if (!state) return null;
  const task = await step(ctx, key, "task", z.string(), async (id) => {
    const r = await generateTask(
      { env: ctx.env, initialState: state, minWords: ctx.run.config.minTaskWords },
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
        stageDeps(ctx, id, `check:${d.index}:${j}`, ctx.run.config.checkModel ?? ctx.run.config.model),
      );
      return r.ok ? r : err(fail(r.error));
    });
    if (code === null) return null;
    codes.push(code);
  }
  return step(ctx, key, "persist", z.string(), async () =>
    ok(
      await persistScenario(ctx.run.db, {
        runId: ctx.run.runId,
        environmentId: ctx.run.input.environmentId,
        environmentVersionId: ctx.env.versionId,
        ...d,
        checklist: items,
        codes,
      }),
    ),
  );
}

type Generated = { created: string[] } | { missingVersion: true };

async function generate(run: Ctx["run"], deps: GenerationRunDeps): Promise<Generated> {
  const env = await loadEnvironmentContext(run.db, run.input.environmentVersionId);
  if (!env) return { missingVersion: true };
  const ctx: Ctx = { run, env, deps };
  const drafts: Drafted[] = [];
  await run.forEach([...Array(run.config.count).keys()], async (i) => {
    const d = await draft(ctx, i);
    if (d) drafts.push(d);
  });
  drafts.sort((a, b) => a.index - b.index);
  const kept = await step(ctx, "all", "dedup", z.array(z.number().int()), (id) =>
    dedupDrafts(ctx, id, drafts),
  );
  const keptDrafts = drafts.filter((d) => kept?.includes(d.index));
  const created: string[] = [];
  await run.forEach(keptDrafts, async (d) => {
    const id = await complete(ctx, d);
    if (id) created.push(id);
  });
  return { created };
}

/** Proves the new scenarios in a run of their own; the run counts the scenarios it created. */
async function finishGeneration(
  run: Ctx["run"],
  deps: GenerationRunDeps,
  generated: Generated,
): Promise<RunOutcome> {
  if ("missingVersion" in generated)
    return { failedSteps: 1, succeededSteps: 0, message: "the environment version no longer exists" };
  const { created } = generated;
  if (created.length > 0 && deps.send)
    await enqueueProofRun(run.db, deps.send, {
      projectId: run.projectId,
      scenarioIds: created.sort(),
      environmentId: run.input.environmentId,
      config: { goldModel: run.config.goldModel },
      reason: "new scenarios",
    });
  const failed = await run.db.pipelineStep.count({ where: { runId: run.runId, status: "FAILED" } });
  return { failedSteps: failed, succeededSteps: created.length };
}

/** The SCEN_GENERATOR run kind: drafts, one dedup over them, then the kept drafts' checks and rows. */
const generationRun = (
  deps: GenerationRunDeps,
): RunKindSpec<GenerationRunConfig, GenerationRunInput, Generated> => ({
  stepsNoun: "generation step(s)",
  configSchema: GenerationRunConfigSchema,
  inputSchema: GenerationRunInputSchema,
  concurrency: (config) => config.concurrency,
  execute: (run) => generate(run, deps),
  finish: (run, generated) => finishGeneration(run, deps, generated),
});

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export const executeGenerationRun = (
  db: Db,
  runId: string,
  deps: GenerationRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> => executeRun(db, runId, generationRun(deps), opts);

async function dedupDrafts(
  ctx: Ctx,
  stepId: string,
  drafts: Drafted[],
): Promise<Result<number[], StepError>> {
  const existing = await ctx.run.db.scenario.findMany({
    where: {
      environmentId: ctx.run.input.environmentId,
      NOT: { externalId: { startsWith: `gen-${ctx.run.runId}-` } },
    },
    select: { id: true, task: true },
  });
  const embedding = ctx.run.config.embeddingModel
    ? {
        llm: ctx.deps.llmFor({ runId: ctx.run.runId, stepId }),
        model: ctx.run.config.embeddingModel,
        threshold: ctx.run.config.embeddingThreshold,
      }
    : null;
  const verdicts = await dedupTasks(
    drafts.map((d) => ({ index: d.index, task: d.task })),
    existing,
    { jaccardThreshold: ctx.run.config.jaccardThreshold, embedding },
  );
  if (!verdicts.ok) return err(fail(verdicts.error));
  await ctx.run.db.pipelineStep.update({
    where: { id: stepId },
    data: { input: { verdicts: verdicts.value } },
  });
  return ok(verdicts.value.filter((v) => v.keep).map((v) => v.index));
}
