import "server-only";
/**
 * A PROOF run: proves a list of scenarios, one PipelineStep ("proof", scenario id) each, so a
 * killed worker's retry skips what was proven. Enqueued when scenarios are generated, when a
 * rollout finds a gold solution, and when code or validators change (stale proofs).
 */
import type { Db } from "@/lib/db";
import { JobError } from "@/lib/jobs/job-definition";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { createRun, finishRun, isCancelling, startRun } from "@/lib/runs/server/run-lifecycle";
import type { RunLlmFactory } from "@/lib/runs/server/run-llm";
import { forEachLimited } from "@/lib/core/for-each-limited";
import { memoStep } from "@/lib/runs/server/step-memo";
import type { SandboxRunner } from "@/lib/sandbox";
import { z } from "zod";
import { PROOF_JOB } from "../scenario-jobs";
import { ProofSummarySchema, runValidatorProof } from "./run-validator-proof";

export const ProofRunConfigSchema = z.object({
  concurrency: z.number().int().min(1).max(32).default(4),
  /** Model asked for a gold solution when none is stored and no rollout reached reward 1; null = never ask. */
  goldModel: z.string().min(1).nullable().default(null),
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

/** Throws a retryable JobError (leaving the run RUNNING) while retryable failures remain and attempts are left. */
export async function executeProofRun(
  db: Db,
  runId: string,
  deps: ProofRunDeps,
  opts: { finalAttempt?: boolean } = {},
): Promise<void> {
  if (!(await startRun(db, runId))) return;
  const run = await db.pipelineRun.findUniqueOrThrow({ where: { id: runId } });
  const config = ProofRunConfigSchema.parse(run.config);
  const { scenarioIds } = ProofRunInputSchema.parse(run.input);
  let failed = 0;
  let retryable = 0;
  let succeeded = 0;
  await forEachLimited(
    scenarioIds,
    config.concurrency,
    async (scenarioId) => {
      const outcome = await memoStep(
        db,
        { runId, subjectKey: scenarioId, stage: "proof" },
        ProofSummarySchema,
        (stepId) =>
          runValidatorProof(
            db,
            { scenarioId },
            {
              sandbox: deps.sandbox,
              gold: config.goldModel
                ? { llm: deps.llmFor({ runId, stepId }), model: config.goldModel }
                : undefined,
            },
          ),
      );
      if (outcome.status === "SUCCEEDED") succeeded += 1;
      else {
        failed += 1;
        if (outcome.error.retryable) retryable += 1;
      }
    },
    () => isCancelling(db, runId),
  );
  if (retryable > 0 && !opts.finalAttempt)
    throw new JobError(`${retryable} proof step(s) failed and may succeed on retry`, true);
  await finishRun(db, runId, { failedSteps: failed, succeededSteps: succeeded });
}
