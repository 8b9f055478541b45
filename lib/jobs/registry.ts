/**
 * Every job type the worker runs. Domains add their definitions here as they gain background work;
 * the handler of each is found by lib/jobs/server/job-handlers.ts.
 */
import { EXPORT_JOB } from "../export/export-job";
import { PIPELINE_STEP_JOB } from "../pipeline/step-job";
import { ROLLOUT_JOB } from "../rollout/rollout-job";
import { PROOF_JOB, SCEN_GENERATOR_JOB } from "../scenarios/scenario-jobs";

export const JOB_DEFINITIONS = [
  PIPELINE_STEP_JOB,
  SCEN_GENERATOR_JOB,
  PROOF_JOB,
  ROLLOUT_JOB,
  EXPORT_JOB,
] as const;

export type RegisteredJob = (typeof JOB_DEFINITIONS)[number];
export type JobName = RegisteredJob["name"];
