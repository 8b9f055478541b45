/**
 * The `pipeline.step` job: one stage for one subject of a SkelBuilder run. Its handler is
 * lib/pipeline/server/run-step.ts, loaded by the worker only (lib/jobs/server/job-handlers.ts).
 * Heartbeats let another worker take over the job of a worker that crashed.
 */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";
import { readEnv } from "@/lib/env";

export const StepPayloadSchema = z.object({
  runId: z.string().min(1),
  subjectKey: z.string().min(1),
  stage: z.string().min(1),
});
export type StepPayload = z.infer<typeof StepPayloadSchema>;

export const PIPELINE_STEP_JOB = defineJob({
  name: "pipeline.step",
  schema: StepPayloadSchema,
  // Enough parallel steps to keep the LLM endpoint's slots busy while other chains are in the sandbox.
  concurrency: readEnv("PIPELINE_JOB_CONCURRENCY"),
  // A retryable step failure (429/5xx after the client's own retries, sandbox busy) is retried 4 times;
  // 2 more deliveries cover workers that died mid-step.
  retryLimit: 4,
  crashRetries: 2,
  heartbeatSeconds: 10,
  expireInSeconds: 3 * 60 * 60,
});

/** One job per step: the key makes a duplicate enqueue of a queued or running step a no-op. */
export const stepJobKey = (step: StepPayload) => `${step.runId}:${step.subjectKey}:${step.stage}`;
