/**
 * Job definitions of the scenarios domain. Their handlers (lib/scenarios/server/scenario-job-handlers.ts)
 * are loaded by the worker only, so the web process, which only enqueues, never loads the sandbox or
 * the LLM stack.
 */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";

export const RunJobPayloadSchema = z.object({ runId: z.string().min(1) });

// A run job lives as long as its run (many rollouts or scenarios); a worker that dies stops
// heart-beating and the job is retried elsewhere, resuming from the memoised steps.
const RUN_JOB = {
  schema: RunJobPayloadSchema,
  retryLimit: 3,
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
};

export const PROOF_JOB = defineJob({ name: "scenarios.proof", concurrency: 2, ...RUN_JOB });

export const SCEN_GENERATOR_JOB = defineJob({ name: "scenarios.generate", concurrency: 1, ...RUN_JOB });
