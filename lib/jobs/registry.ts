/**
 * Every job type the worker runs. Domains add their definitions here as they gain background work
 * (pipeline stages, scenario generation, rollouts, exports).
 */
import { getDb } from "../db";
import { exportJob } from "../export/server/export-job";
import { createPipelineStepJob } from "../pipeline/server/step-job";
import { ROLLOUT_JOB } from "../rollout/server/jobs";
import { PROOF_JOB, SCEN_GENERATOR_JOB } from "../scenarios/server/jobs";
import type { JobDefinition } from "./job-definition";

export const JOB_DEFINITIONS: JobDefinition[] = [createPipelineStepJob(getDb), SCEN_GENERATOR_JOB, PROOF_JOB, ROLLOUT_JOB, exportJob];
