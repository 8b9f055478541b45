import "server-only";
/**
 * Job definitions of the scenarios domain. Handlers import their executors lazily, so the web
 * process (which only enqueues) never loads the sandbox or the LLM stack.
 */
import { defineJob } from "@/lib/jobs/job-definition";
import { z } from "zod";

const RunPayload = z.object({ runId: z.string().min(1) });

export const PROOF_JOB = defineJob({
  name: "scenarios.proof",
  schema: RunPayload,
  concurrency: 2,
  retryLimit: 3,
  // A run job lives as long as its run (many rollouts or scenarios); a worker that dies stops
  // heart-beating and the job is retried elsewhere, resuming from the memoised steps.
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
  handler: async ({ runId }, ctx) => {
    const [{ executeProofRun }, deps] = await Promise.all([import("./proof-run"), import("./production-deps")]);
    await executeProofRun(deps.db(), runId, deps.proofDeps(ctx.signal), { finalAttempt: ctx.attempt >= 3 });
  },
});

export const SCEN_GENERATOR_JOB = defineJob({
  name: "scenarios.generate",
  schema: RunPayload,
  concurrency: 1,
  retryLimit: 3,
  // A run job lives as long as its run (many rollouts or scenarios); a worker that dies stops
  // heart-beating and the job is retried elsewhere, resuming from the memoised steps.
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
  handler: async ({ runId }, ctx) => {
    const [{ executeGenerationRun }, deps, { senderFor }] = await Promise.all([import("./generation-run"), import("./production-deps"), import("@/lib/jobs/server/send-job")]);
    // The worker's own pg-boss enqueues the follow-up proof run for the new scenarios.
    await executeGenerationRun(deps.db(), runId, { ...deps.generationDeps(ctx.signal), send: senderFor(ctx.boss) }, { finalAttempt: ctx.attempt >= 3 });
  },
});
