import "server-only";
/** Job definitions of the rollout domain; the executor is imported lazily (see scenarios/server/jobs.ts). */
import { defineJob } from "@/lib/jobs/job-definition";
import { z } from "zod";

export const ROLLOUT_JOB = defineJob({
  name: "rollout.run",
  schema: z.object({ runId: z.string().min(1) }),
  concurrency: 1,
  retryLimit: 3,
  // A run job lives as long as its run (many rollouts or scenarios); a worker that dies stops
  // heart-beating and the job is retried elsewhere, resuming from the memoised steps.
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
  handler: async ({ runId }, ctx) => {
    const [{ executeRolloutRun }, deps] = await Promise.all([import("./rollout-run"), import("@/lib/scenarios/server/production-deps")]);
    await executeRolloutRun(deps.db(), runId, deps.proofDeps(ctx.signal), { finalAttempt: ctx.attempt >= 3 });
  },
});
