import "server-only";
/**
 * The `pipeline.step` job definition: payload schema, retries, heartbeat. The handler lives in
 * run-step.ts and is imported lazily (see there). Heartbeats let another worker take over the job
 * of a worker that crashed.
 */
import { z } from "zod";
import type { Db } from "@/lib/db";
import { defineJob } from "@/lib/jobs/job-definition";
import { registerStepJob } from "./advance-run";
import type * as RunStepModule from "./run-step";
import { readEnv } from "../../env";

export const StepPayloadSchema = z.object({ runId: z.string().min(1), subjectKey: z.string().min(1), stage: z.string().min(1) });
export type StepPayload = z.infer<typeof StepPayloadSchema>;

/** Attempts for a step whose failure is retryable (429/5xx after the client's own retries, sandbox busy). */
export const STEP_RETRY_LIMIT = 4;

// Imported once: a dynamic import per job goes through module resolution every time.
let runStepModule: Promise<typeof RunStepModule> | undefined;
const loadRunStep = () => (runStepModule ??= import("./run-step"));

export function createPipelineStepJob(getDb: () => Db) {
  const def = defineJob({
    name: "pipeline.step",
    schema: StepPayloadSchema,
    // Enough parallel steps to keep the LLM endpoint's slots busy while other chains are in the sandbox.
    concurrency: readEnv("PIPELINE_JOB_CONCURRENCY"),
    retryLimit: STEP_RETRY_LIMIT + 2, // + crash re-deliveries
    heartbeatSeconds: 10,
    expireInSeconds: 3 * 60 * 60,
    handler: async (payload, ctx) => (await loadRunStep()).runStep(getDb(), payload, ctx),
  });
  registerStepJob(def);
  return def;
}
