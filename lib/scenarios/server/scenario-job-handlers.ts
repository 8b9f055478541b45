import "server-only";
/** Handlers of the scenarios jobs (definitions in lib/scenarios/scenario-jobs.ts), loaded lazily by the worker. */
import type { JobHandler } from "@/lib/jobs/server/job-handler";
import type { PROOF_JOB, SCEN_GENERATOR_JOB } from "../scenario-jobs";
import { executeGenerationRun } from "./generation-run";
import { executeProofRun } from "./proof-run";
import { generationDeps, proofDeps } from "./production-deps";

export const handleProofJob: JobHandler<typeof PROOF_JOB> = ({ runId }, ctx) =>
  executeProofRun(ctx.db, runId, proofDeps(ctx.db, ctx.signal), { finalAttempt: ctx.isFinalAttempt });

export const handleGenerationJob: JobHandler<typeof SCEN_GENERATOR_JOB> = ({ runId }, ctx) =>
  // The worker's own queue enqueues the follow-up proof run for the new scenarios.
  executeGenerationRun(
    ctx.db,
    runId,
    { ...generationDeps(ctx.db, ctx.signal), send: ctx.queue.send },
    { finalAttempt: ctx.isFinalAttempt },
  );
