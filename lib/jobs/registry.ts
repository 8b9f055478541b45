/**
 * Every job type the worker runs. Domains add their definitions here as they gain background work
 * (pipeline stages, scenario generation, rollouts, exports).
 */
import { getDb } from "../db";
import { exportJob } from "../export/server/export-job";
import { createPipelineStepJob } from "../pipeline/server/step-job";
import type { JobDefinition } from "./job-definition";

export const JOB_DEFINITIONS: JobDefinition[] = [createPipelineStepJob(getDb), exportJob];
