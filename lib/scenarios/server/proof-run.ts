import "server-only";
/**
 * A PROOF run: proves a list of scenarios, one PipelineStep ("proof", scenario id) each, so a
 * killed worker's retry skips what was proven. Enqueued when scenarios are generated, when a
 * rollout finds a gold solution, and when code or validators change (stale proofs).
 */
import type { Db } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { type RunKindSpec, executeRun } from "@/lib/runs/server/execute-run";
import { createRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
import type { SandboxRunner } from "@/lib/sandbox";
import { z } from "zod";
import { PROOF_JOB } from "../scenario-jobs";
import { ProofSummarySchema, runValidatorProof } from "./run-validator-proof";

export const ProofRunConfigSchema = z.object({
  concurrency: z.number().int().min(1).max(32).default(4),
  /** Model asked for a gold solution when none is stored and no rollout reached reward 1; null = never ask. */
  goldModel: z.string().min(1).nullable().default(null),
  /**
   * Measure validator strength (near-misses) in each verified proof. Off only for the first start's
   * sample proofs, which hold the sandbox pool while the studio is first used.
   */
  nearMisses: z.boolean().default(true),
});
export type ProofRunConfig = z.infer<typeof ProofRunConfigSchema>;
export const ProofRunInputSchema = z.object({
  scenarioIds: z.array(z.string()).min(1),
  environmentId: z.string().optional(),
});

export type ProofRunDeps = {
  sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch">;
  llmFor: RunLlmFactory;
};

export async function enqueueProofRun(
  db: Db,
  send: JobSender,
  input: {
    projectId: string;
    scenarioIds: string[];
    environmentId?: string;
    config?: Partial<ProofRunConfig>;
    createdById?: string | null;
    reason?: string;
  },
) {
  const config = ProofRunConfigSchema.parse(input.config ?? {});
  const run = await createRun(db, {
    projectId: input.projectId,
    kind: "PROOF",
    name: `Validator proof (${input.scenarioIds.length} scenarios)${input.reason ? `: ${input.reason}` : ""}`,
    config,
    input: { scenarioIds: input.scenarioIds, environmentId: input.environmentId },
    createdById: input.createdById,
  });
  await send(PROOF_JOB, { runId: run.id }, `run:${run.id}`);
  return run;
}

/** The PROOF run kind: one memoised "proof" step per scenario. */
const proofRun = (
  deps: ProofRunDeps,
): RunKindSpec<ProofRunConfig, z.infer<typeof ProofRunInputSchema>, void> => ({
  stepsNoun: "proof step(s)",
  configSchema: ProofRunConfigSchema,
  inputSchema: ProofRunInputSchema,
  concurrency: (config) => config.concurrency,
  execute: ({ db, runId, config, input, step, forEach }) =>
    forEach(input.scenarioIds, async (scenarioId) => {
      await step({ subjectKey: scenarioId, stage: "proof" }, ProofSummarySchema, (stepId) =>
        runValidatorProof(
          db,
          { scenarioId, nearMisses: config.nearMisses },
          {
            sandbox: deps.sandbox,
            gold: config.goldModel
              ? { llm: deps.llmFor({ runId, stepId }), model: config.goldModel }
              : undefined,
          },
        ),
      );
    }),
});

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export const executeProofRun = (
  db: Db,
  runId: string,
  deps: ProofRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> => executeRun(db, runId, proofRun(deps), opts);
