/** Job definitions of the rollout domain; the executor is imported lazily (see scenarios/server/jobs.ts). */
import { defineJob } from "@/lib/jobs/job-definition";
import { z } from "zod";

export const ROLLOUT_JOB = defineJob({
  name: "rollout.run",
  schema: z.object({ runId: z.string().min(1) }),
  concurrency: 1,
  retryLimit: 3,
  handler: async ({ runId }, ctx) => {
    const [{ executeRolloutRun }, deps] = await Promise.all([import("./rollout-run"), import("@/lib/scenarios/server/production-deps")]);
    await executeRolloutRun(deps.db(), runId, deps.proofDeps(ctx.signal), { finalAttempt: ctx.attempt >= 3 });
  },
});
