import "server-only";
/**
 * Where the worker finds the code of each registered job: a lazy import per job type, so a job's
 * definition never imports its handler (the handler may enqueue jobs of its own definition) and a
 * worker loads only the handlers of the jobs it is given.
 */
import { type JobName, type RegisteredJob } from "../registry";
import type { JobHandler, JobHandlerLoader } from "./job-handler";

type HandlerOf<N extends JobName> = JobHandler<Extract<RegisteredJob, { name: N }>>;

const HANDLERS: { [N in JobName]: () => Promise<HandlerOf<N>> } = {
  "pipeline.step": async () => (await import("@/lib/pipeline/server/run-step")).handlePipelineStep,
  "scenarios.generate": async () =>
    (await import("@/lib/scenarios/server/scenario-job-handlers")).handleGenerationJob,
  "scenarios.proof": async () =>
    (await import("@/lib/scenarios/server/scenario-job-handlers")).handleProofJob,
  "rollout.run": async () => (await import("@/lib/rollout/server/rollout-job-handler")).handleRolloutJob,
  "export.run": async () => (await import("@/lib/export/server/export-job-handler")).handleExportJob,
};

const isRegistered = (name: string): name is JobName => Object.hasOwn(HANDLERS, name);

export const loadJobHandler: JobHandlerLoader = async (def) => {
  if (!isRegistered(def.name)) throw new Error(`no handler for job ${def.name}`);
  return (await HANDLERS[def.name]()) as JobHandler;
};
