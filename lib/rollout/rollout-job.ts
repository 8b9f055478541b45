/** The `rollout.run` job; its handler (lib/rollout/server/rollout-job-handler.ts) is loaded by the worker only. */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";

export const ROLLOUT_JOB = defineJob({
  name: "rollout.run",
  schema: z.object({ runId: z.string().min(1) }),
  concurrency: 1,
  retryLimit: 3,
  // A run job lives as long as its run (many rollouts); a worker that dies stops heart-beating and
  // the job is retried elsewhere, resuming from the memoised steps.
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
});
