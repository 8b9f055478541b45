import "server-only";
/**
 * Runs the pure stage for one step through its STAGE_TABLE entry, with production deps, and returns
 * its Result. No writes here (commit-step.ts does them).
 */
import type { Result } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db } from "@/lib/db";
import type { RunConfig } from "../pipeline.schema";
import type { StageDeps } from "../stages/deps";
import type { StepRow } from "./stage-spec";
import { stageSpecOf } from "./stage-table";

export async function computeStep(
  db: Db,
  step: StepRow,
  config: RunConfig,
  deps: StageDeps,
): Promise<Result<unknown, StepError>> {
  const spec = stageSpecOf(step.stage);
  if (!spec)
    return {
      ok: false,
      error: { code: "UNKNOWN_STAGE", message: `unknown stage ${step.stage}`, retryable: false },
    };
  return spec.compute({ db, step, config, deps });
}
