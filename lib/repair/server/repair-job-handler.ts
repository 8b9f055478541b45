import "server-only";
/** Handler of the `repair.run` job (definition in lib/repair/repair-job.ts), loaded lazily by the worker. */
import type { JobHandler } from "@/lib/jobs/server/job-handler";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { getSandboxRunner } from "@/lib/sandbox";
import type { REPAIR_JOB } from "../repair-job";
import { executeRepairRun } from "./repair-run";

export const handleRepairJob: JobHandler<typeof REPAIR_JOB> = ({ runId }, ctx) =>
  executeRepairRun(
    ctx.db,
    runId,
    { sandbox: getSandboxRunner(), llmFor: createRunLlmFactory(ctx.db, { signal: ctx.signal }) },
    { finalAttempt: ctx.isFinalAttempt },
  );
