import "server-only";
/** Handler of the `rollout.run` job (definition in lib/rollout/rollout-job.ts), loaded lazily by the worker. */
import type { JobHandler } from "@/lib/jobs/server/job-handler";
import { proofDeps } from "@/lib/scenarios/server/production-deps";
import type { ROLLOUT_JOB } from "../rollout-job";
import { executeRolloutRun } from "./rollout-run";

export const handleRolloutJob: JobHandler<typeof ROLLOUT_JOB> = ({ runId }, ctx) =>
  executeRolloutRun(ctx.db, runId, proofDeps(ctx.db, ctx.signal), { finalAttempt: ctx.isFinalAttempt });
