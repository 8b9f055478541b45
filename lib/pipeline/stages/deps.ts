/**
 * What every stage receives besides its input. Production wires these once per step
 * (lib/pipeline/server/stage-deps.ts); unit tests pass fakes.
 */
import type { Result } from "../../core/result";
import type { StepError } from "../../core/run";
import { DEFAULT_MAX_REASKS, type LlmClient } from "../../llm";
import type { SandboxRunner } from "../../sandbox";
import type { Models } from "../pipeline.schema";

export type StageResult<T> = Promise<Result<T, StepError>>;

export type StageDeps = {
  llm: LlmClient;
  sandbox: Pick<SandboxRunner, "analyze" | "load">;
  models: Models;
  /** A "fresh" re-run sets a salt so the LLM cache is bypassed for this step only. */
  cacheSalt?: string;
  /** Re-asks after a rejected reply, per stage tag (run config `maxReasks`); DEFAULT_MAX_REASKS otherwise. */
  maxReasks?: Record<string, number>;
};

export const reasksFor = (deps: Pick<StageDeps, "maxReasks">, stage: string) =>
  deps.maxReasks?.[stage] ?? DEFAULT_MAX_REASKS;

/** Prompts carry a `[stage:<id>]` tag: stored calls are self-describing in the artifact viewer. */
export const stageTag = (id: string) => `[stage:${id}]`;
