import "server-only";
/**
 * Every job type the worker runs, one line each: its definition (queue name, payload schema,
 * concurrency, retries: what senders import, beside its domain) and its handler, imported lazily.
 * The handler is named here rather than in the definition because handlers enqueue jobs of their
 * own definition, and a definition that imported its handler would close an import cycle; lazily,
 * a process that only enqueues never loads the handler, and a worker loads only those it runs.
 */
import { EXPORT_JOB } from "@/lib/export/export-job";
import { PIPELINE_STEP_JOB } from "@/lib/pipeline/step-job";
import { REPAIR_JOB } from "@/lib/repair/repair-job";
import { ROLLOUT_JOB } from "@/lib/rollout/rollout-job";
import { PROOF_JOB, SCEN_GENERATOR_JOB } from "@/lib/scenarios/scenario-jobs";
import type { JobDefinition } from "../job-definition";
import type { JobHandler, JobHandlerLoader } from "./job-handler";

/** A definition with its handler's loader; the handler's payload type is checked against the definition. */
const job = <D extends JobDefinition>(definition: D, load: () => Promise<JobHandler<D>>) => ({
  definition,
  load,
});

const JOBS = [
  job(PIPELINE_STEP_JOB, () => import("@/lib/pipeline/server/run-step").then((m) => m.handlePipelineStep)),
  job(SCEN_GENERATOR_JOB, () =>
    import("@/lib/scenarios/server/scenario-job-handlers").then((m) => m.handleGenerationJob),
  ),
  job(PROOF_JOB, () => import("@/lib/scenarios/server/scenario-job-handlers").then((m) => m.handleProofJob)),
  job(ROLLOUT_JOB, () => import("@/lib/rollout/server/rollout-job-handler").then((m) => m.handleRolloutJob)),
  job(EXPORT_JOB, () => import("@/lib/export/server/export-job-handler").then((m) => m.handleExportJob)),
  job(REPAIR_JOB, () => import("@/lib/repair/server/repair-job-handler").then((m) => m.handleRepairJob)),
];

export const JOB_DEFINITIONS: readonly JobDefinition[] = JOBS.map((j) => j.definition);

const LOADERS = new Map<string, () => Promise<JobHandler>>(JOBS.map((j) => [j.definition.name, j.load]));

export const loadJobHandler: JobHandlerLoader = async (def) => {
  const load = LOADERS.get(def.name);
  if (!load) throw new Error(`no handler for job ${def.name}`);
  return load();
};
