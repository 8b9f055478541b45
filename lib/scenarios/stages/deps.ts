/**
 * What every ScenGenerator stage receives. Production wires these per step
 * (lib/scenarios/server/generation-run.ts); unit tests pass the scripted LLM and a real sandbox.
 */
import type { Result } from "../../core/result";
import type { StepError } from "../../core/run";
import type { LlmClient } from "../../llm";
import type { SandboxRunner, Tool } from "../../sandbox";

export type ScenStageResult<T> = Promise<Result<T, StepError>>;

export type ScenStageDeps = {
  llm: LlmClient;
  sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch">;
  model: string;
  /** Distinguishes the N samples of one prompt (and a deliberate fresh re-run) in the LLM cache. */
  cacheSalt?: string;
};

/** The accepted environment version a scenario is generated for. */
export type EnvironmentContext = {
  source: string;
  className: string;
  introduction: string;
  stateSchema: unknown;
  rules: string[];
  operations: { operation_name: string; operation_description: string; operation_type: string }[];
  tools: Tool[];
};

export const scenTag = (id: string) => `[stage:${id}]`;
export const pretty = (value: unknown) => JSON.stringify(value, null, 2);
