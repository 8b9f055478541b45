/**
 * The `repair.run` job: a REPAIR run over failing items, one memoised step per item. Its handler
 * (lib/repair/server/repair-job-handler.ts) is loaded by the worker only.
 */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";

export const RepairJobPayloadSchema = z.object({ runId: z.string().min(1) });

// Like every run job: it lives as long as its run, and a worker that stops heart-beating has it
// retried elsewhere, resuming after the memoised steps.
export const REPAIR_JOB = defineJob({
  name: "repair.run",
  schema: RepairJobPayloadSchema,
  concurrency: 1,
  retryLimit: 3,
  heartbeatSeconds: 10,
  expireInSeconds: 6 * 60 * 60,
});
