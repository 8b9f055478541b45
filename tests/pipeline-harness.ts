/**
 * TEST ONLY. Helpers for pipeline DB tests: point the LLM layer at a fake server, start a worker
 * with the pipeline job, and wait for a run to settle.
 */
import type { Db } from "@/lib/db";
import { startWorker } from "@/lib/jobs/worker";
import { buildRunConfig, type RunConfigOverrides } from "@/lib/pipeline/run-config";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { loadJobHandler } from "@/lib/jobs/server/job-handlers";
import { PIPELINE_STEP_JOB } from "@/lib/pipeline/step-job";

export function useFakeEndpoint(url: string) {
  process.env.OPENAI_BASE_URL = url;
  process.env.OPENAI_API_KEY = "test";
  process.env.LLM_RETRY_BASE_MS = "10";
  process.env.LLM_TIMEOUT_MS ??= "2000";
}

export const testRunConfig = (overrides: RunConfigOverrides = {}) =>
  buildRunConfig(
    { defaultModel: "m-main", checkModel: "m-check", embeddingModel: null },
    { qualityRounds: 4, ...overrides },
  );

export async function startPipelineWorker(db: Db, url: string) {
  return startWorker(url, [PIPELINE_STEP_JOB], { db, loadHandler: loadJobHandler });
}

export async function waitForRun(db: Db, runId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await getRunProgress(db, runId);
    if (progress.run.isTerminal) return progress;
    if (Date.now() > deadline)
      throw new Error(
        `run did not finish: ${JSON.stringify(progress.stages)} failures=${JSON.stringify(progress.failures)}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}
