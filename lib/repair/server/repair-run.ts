import "server-only";
/**
 * A REPAIR run: a repair proposal for each failing item, one memoised PipelineStep ("repair",
 * scenario id) each, so a killed worker's retry resumes after the proposals already made. Every LLM
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
import type { RepairSandbox } from "../repair-checks";
import { REPAIR_JOB } from "../repair-job";
import { ProposalSummarySchema, proposeScenarioRepair } from "./propose-repair";

export const RepairRunConfigSchema = z.object({
  model: z.string().min(1),
  concurrency: z.number().int().min(1).max(16).default(2),
  /** Re-asks after a refused reply, per check (the stage's limit). */
  maxReasks: z.number().int().min(0).max(5).default(2),
  /** USD per million tokens, snapshotted from LLM_PRICES when the run is enqueued. */
  prices: PriceTableSchema.default({}),
});
export type RepairRunConfig = z.infer<typeof RepairRunConfigSchema>;
export const RepairRunInputSchema = z.object({
  scenarioIds: z.array(z.string()).min(1),
  environmentId: z.string().optional(),
  datasetVersionId: z.string().optional(),
});
export type RepairRunInput = z.infer<typeof RepairRunInputSchema>;

export type RepairRunDeps = { sandbox: RepairSandbox; llmFor: RunLlmFactory };

export async function enqueueRepairRun(
  db: Db,
  send: JobSender,
  input: RepairRunInput & {
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
  requirePricesForBudget(config.prices, [config.model], input.maxCostUsd);
  const run = await createRun(db, {
    projectId: input.projectId,
    kind: "REPAIR",
    name: `Repair: ${input.scenarioIds.length} item(s) of ${input.label}`,
    config,
    input: {
      scenarioIds: input.scenarioIds,
      environmentId: input.environmentId,
      datasetVersionId: input.datasetVersionId,
    },
    createdById: input.createdById,
    maxCostUsd: input.maxCostUsd,
  });
  await send(REPAIR_JOB, { runId: run.id }, `run:${run.id}`);
  return run;
}

const repairRun = (deps: RepairRunDeps): RunKindSpec<RepairRunConfig, RepairRunInput, void> => ({
  stepsNoun: "repair(s)",
  configSchema: RepairRunConfigSchema,
  inputSchema: RepairRunInputSchema,
  concurrency: (config) => config.concurrency,
  stopsOnBudget: true,
  execute: ({ db, runId, config, input, step, forEach }) =>
    forEach(input.scenarioIds, async (scenarioId) => {
      await step({ subjectKey: scenarioId, stage: "repair" }, ProposalSummarySchema, (stepId) =>
        proposeScenarioRepair(
          db,
          { scenarioId, runId },
          {
            sandbox: deps.sandbox,
            llm: deps.llmFor({ runId, stepId, prices: config.prices }),
            model: config.model,
            maxReasks: config.maxReasks,
            // The step's identity: a resumed step replays its accepted answers from the cache.
            cacheSalt: `${runId}:${scenarioId}`,
          },
        ),
      );
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
  const [byStatus, steps] = await Promise.all([
    db.repairProposal.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.pipelineStep.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
  ]);
  const count = (status: string) => byStatus.find((b) => b.status === status)?._count._all ?? 0;
  const tried = steps.reduce((n, s) => n + (s.status === "PENDING" ? 0 : s._count._all), 0);
  return {
    runId,
    status: run.status,
    itemsTried: tried,
    // Accepted or rejected since: they were proven when the run made them.
    proven: count("PROVEN") + count("ACCEPTED") + count("REJECTED"),
    failed: count("FAILED"),
    stepsFailed: steps.find((s) => s.status === "FAILED")?._count._all ?? 0,
    costUsd: Number(run.costUsd),
    errorMessage: run.errorMessage,
  };
}
