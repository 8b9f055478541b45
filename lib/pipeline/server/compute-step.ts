import "server-only";
/**
 * Runs the pure stage for one step: gathers its inputs from earlier steps, calls the stage with
 * production deps and returns its Result. No writes here (commit-step.ts does them).
 */
import { z } from "zod";
import type { Result } from "@/lib/core/result";
import type { Db } from "@/lib/db";
import { type RunConfig, TopicSchema } from "../pipeline.schema";
import { assembleClass } from "../stages/assemble-class";
import { selectTopics } from "../stages/dedup-topics";
import type { StepError } from "@/lib/core/run";
import type { StageDeps } from "../stages/deps";
import { generateTestState } from "../stages/generate-test-state";
import { inferOperations } from "../stages/infer-operations";
import { inferState } from "../stages/infer-state";
import { inferTopic } from "../stages/infer-topic";
import { judgeTask } from "../stages/judge-task";
import { runQualityCheck } from "../stages/quality-check";
import { writeMethods } from "../stages/write-methods";
import { writeStateCode } from "../stages/write-state-code";
import { CHAIN_SCHEMAS as S, chainOutputs, need } from "./step-inputs";

export type StepRow = {
  id: string;
  runId: string;
  subjectKey: string;
  stage: string;
  input: unknown;
  environmentId: string | null;
};

export const TaskInputSchema = z.object({ task: z.string() });
export const ChainStepInputSchema = z.object({ topic: TopicSchema, environmentId: z.string() });

async function selectStep(db: Db, step: StepRow, config: RunConfig, deps: StageDeps) {
  const rows = await db.pipelineStep.findMany({
    where: { runId: step.runId, stage: "topic", status: "SUCCEEDED" },
    orderBy: { subjectKey: "asc" },
  });
  const topics = rows.flatMap((r) => {
    const t = TopicSchema.safeParse(r.output);
    return t.success ? [{ key: r.subjectKey, topic: t.data }] : [];
  });
  return selectTopics(
    {
      topics,
      minUsefulness: config.minUsefulness,
      minModelability: config.minModelability,
      dedupThreshold: config.dedupThreshold,
      embeddingDedupThreshold: config.embeddingDedupThreshold,
    },
    deps,
  );
}

export async function computeStep(
  db: Db,
  step: StepRow,
  config: RunConfig,
  deps: StageDeps,
): Promise<Result<unknown, StepError>> {
  if (step.stage === "judge") return judgeTask(TaskInputSchema.parse(step.input), deps);
  if (step.stage === "topic") return inferTopic(TaskInputSchema.parse(step.input), deps);
  if (step.stage === "select") return selectStep(db, step, config, deps);
  const { topic } = ChainStepInputSchema.parse(step.input);
  const out = await chainOutputs(db, step.runId, step.subjectKey);
  switch (step.stage) {
    case "state":
      return inferState({ topic }, deps);
    case "state_code":
      return writeStateCode({ topic, state: need(out, "state", S.state) }, deps);
    case "operations":
      return inferOperations(
        { topic, state: need(out, "state", S.state), stateCode: need(out, "state_code", S.state_code) },
        deps,
      );
    case "methods":
      return writeMethods(
        {
          topic,
          state: need(out, "state", S.state),
          stateCode: need(out, "state_code", S.state_code),
          operations: need(out, "operations", S.operations).operations,
        },
        deps,
      );
    case "assemble":
      return assembleClass(
        {
          stateCode: need(out, "state_code", S.state_code),
          methods: need(out, "methods", S.methods).methods,
          operations: need(out, "operations", S.operations).operations,
        },
        deps,
      );
    case "test_state":
      return generateTestState(
        { assembled: need(out, "assemble", S.assemble), state: need(out, "state", S.state) },
        deps,
      );
    case "quality":
      return runQualityCheck(
        {
          topic,
          state: need(out, "state", S.state),
          assembled: need(out, "assemble", S.assemble),
          methods: need(out, "methods", S.methods).methods,
          initialState: need(out, "test_state", S.test_state).initialState,
          rounds: config.qualityRounds,
          threshold: config.minNotFailRate,
        },
        deps,
      );
    default:
      return {
        ok: false,
        error: { code: "UNKNOWN_STAGE", message: `unknown stage ${step.stage}`, retryable: false },
      };
  }
}
