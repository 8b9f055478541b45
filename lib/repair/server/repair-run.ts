import "server-only";
/**
 * A REPAIR run: a repair proposal for each failing item — a scenario (its checks) or an environment
 * whose quality probes failed (its code) — one memoised PipelineStep ("repair", the scenario id or
 * `environment:<id>`) each, so a killed worker's retry resumes after the proposals already made. Every LLM
 * call is bound to its step (cost on the step and the run, budget checked before each paid call);
 * a spent budget stops the run. The run snapshots its prices when enqueued; a budget of 0, or a
 * budget on an unpriced model, is refused then, before anything is written.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { PriceTableSchema, getLlmConfig, requirePricesForBudget } from "@/lib/llm";
import { type RunKindSpec, executeRun } from "@/lib/runs/server/execute-run";
import { createRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
import { z } from "zod";
import type { SandboxRunner } from "@/lib/sandbox";
import type { RepairSandbox } from "../repair-checks";
import { REPAIR_JOB } from "../repair-job";
import { proposeEnvironmentRepair } from "./propose-environment-repair";
import { ProposalSummarySchema, proposeScenarioRepair } from "./propose-repair";

export const RepairRunConfigSchema = z.object({
  model: z.string().min(1),
  /** The judge re-grading an environment repair's re-run probes (default: the repair model). */
  judgeModel: z.string().min(1).optional(),
  concurrency: z.number().int().min(1).max(16).default(2),
  /** Re-asks after a refused reply, per check (the stage's limit). */
  maxReasks: z.number().int().min(0).max(5).default(2),
  /** USD per million tokens, snapshotted from LLM_PRICES when the run is enqueued. */
  prices: PriceTableSchema.default({}),
});
export type RepairRunConfig = z.infer<typeof RepairRunConfigSchema>;
export const RepairRunInputSchema = z
  .object({
    scenarioIds: z.array(z.string()).default([]),
    /** Environments whose quality probes failed: their code is repaired. */
    environmentIds: z.array(z.string()).default([]),
    environmentId: z.string().optional(),
    datasetVersionId: z.string().optional(),
  })
  .refine((i) => i.scenarioIds.length + i.environmentIds.length > 0, {
    message: "a repair run needs at least one item",
  });
export type RepairRunInput = z.infer<typeof RepairRunInputSchema>;

export type RepairRunDeps = {
  sandbox: RepairSandbox & Pick<SandboxRunner, "analyze">;
  llmFor: RunLlmFactory;
};

export async function enqueueRepairRun(
  db: Db,
  send: JobSender,
  input: z.input<typeof RepairRunInputSchema> & {
    projectId: string;
    config: z.input<typeof RepairRunConfigSchema>;
    createdById?: string | null;
    maxCostUsd?: number | null;
    label: string;
  },
) {
  if (input.maxCostUsd !== null && input.maxCostUsd !== undefined && !(input.maxCostUsd > 0))
    throw new AppError("INVALID_INPUT", `A cost budget must be more than $0 (got $${input.maxCostUsd}).`);
  const parsed = RepairRunConfigSchema.parse(input.config);
  const config = { ...parsed, prices: { ...getLlmConfig().prices, ...parsed.prices } };
  requirePricesForBudget(config.prices, [config.model, config.judgeModel ?? config.model], input.maxCostUsd);
  const items = RepairRunInputSchema.safeParse(input);
  if (!items.success) throw new AppError("INVALID_INPUT", "Nothing to repair: the run names no item.");
  const count = items.data.scenarioIds.length + items.data.environmentIds.length;
  const run = await createRun(db, {
    projectId: input.projectId,
    kind: "REPAIR",
    name: `Repair: ${count} item(s) of ${input.label}`,
    config,
    input: {
      scenarioIds: items.data.scenarioIds,
      environmentIds: items.data.environmentIds,
      environmentId: input.environmentId,
      datasetVersionId: input.datasetVersionId,
    },
    createdById: input.createdById,
    maxCostUsd: input.maxCostUsd,
  });
  await send(REPAIR_JOB, { runId: run.id }, `run:${run.id}`);
  return run;
}

/** A run's items: its scenarios (check repairs), then its environments (code repairs). */
const itemsOf = (input: RepairRunInput) => [
  ...input.scenarioIds.map((id) => ({ key: id, scenarioId: id, environmentId: null })),
  ...input.environmentIds.map((id) => ({ key: `environment:${id}`, scenarioId: null, environmentId: id })),
];

const repairRun = (deps: RepairRunDeps): RunKindSpec<RepairRunConfig, RepairRunInput, void> => ({
  stepsNoun: "repair(s)",
  configSchema: RepairRunConfigSchema,
  inputSchema: RepairRunInputSchema,
  concurrency: (config) => config.concurrency,
  stopsOnBudget: true,
  execute: ({ db, runId, config, input, step, forEach }) =>
    forEach(itemsOf(input), async (item) => {
      await step({ subjectKey: item.key, stage: "repair" }, ProposalSummarySchema, (stepId) => {
        const repairDeps = {
          sandbox: deps.sandbox,
          llm: deps.llmFor({ runId, stepId, prices: config.prices }),
          model: config.model,
          maxReasks: config.maxReasks,
          // The step's identity: a resumed step replays its accepted answers from the cache.
          cacheSalt: `${runId}:${item.key}`,
        };
        return item.environmentId
          ? proposeEnvironmentRepair(
              db,
              { environmentId: item.environmentId, runId },
              { ...repairDeps, judgeModel: config.judgeModel ?? config.model },
            )
          : proposeScenarioRepair(db, { scenarioId: item.key, runId }, repairDeps);
      });
    }),
});

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export const executeRepairRun = (
  db: Db,
  runId: string,
  deps: RepairRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> => executeRun(db, runId, repairRun(deps), opts);

export type RepairRunSummary = {
  runId: string;
  status: string;
  itemsTried: number;
  /** Of the items tried, the environments whose code was repaired (failed quality probes). */
  environmentsTried: number;
  proven: number;
  failed: number;
  /** Items that got no proposal (endpoint failure, budget, the item changed meanwhile). */
  stepsFailed: number;
  costUsd: number;
  errorMessage: string | null;
};

/** What the CLI prints last and the run page shows: counted from the proposals and steps of the run. */
export async function summarizeRepairRun(db: Db, runId: string): Promise<RepairRunSummary> {
  const run = await db.pipelineRun.findUniqueOrThrow({ where: { id: runId } });
  const [byStatus, steps, environmentsTried] = await Promise.all([
    db.repairProposal.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.pipelineStep.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.pipelineStep.count({
      where: { runId, subjectKey: { startsWith: "environment:" }, status: { not: "PENDING" } },
    }),
  ]);
  const count = (status: string) => byStatus.find((b) => b.status === status)?._count._all ?? 0;
  const tried = steps.reduce((n, s) => n + (s.status === "PENDING" ? 0 : s._count._all), 0);
  return {
    runId,
    status: run.status,
    itemsTried: tried,
    environmentsTried,
    // Accepted or rejected since: they were proven when the run made them.
    proven: count("PROVEN") + count("ACCEPTED") + count("REJECTED"),
    failed: count("FAILED"),
    stepsFailed: steps.find((s) => s.status === "FAILED")?._count._all ?? 0,
    costUsd: Number(run.costUsd),
    errorMessage: run.errorMessage,
  };
}
