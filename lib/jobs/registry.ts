/**
 * Every job type the worker runs. Domains add their definitions here as they gain background work
 * (pipeline stages, scenario generation, rollouts, exports).
 */
import { exportJob } from "../export/server/export-job";
import type { JobDefinition } from "./job-definition";

export const JOB_DEFINITIONS: JobDefinition[] = [exportJob];
