import "server-only";
/**
 * Every SkelBuilder stage and the file that wires it (steps/<stage>.ts). Keyed by the Stage union
 * of pipeline.schema.ts: a stage named there without an entry here is a type error. The order
 * of the stages, and so of an environment's chain, is STAGES' order.
 */
import { STAGES, type Stage } from "../pipeline.schema";
import type { StageSpec } from "./stage-spec";
import { assembleStep } from "./steps/assemble";
import { judgeStep } from "./steps/judge";
import { methodsStep } from "./steps/methods";
import { operationsStep } from "./steps/operations";
import { qualityStep } from "./steps/quality";
import { selectStep } from "./steps/select";
import { stateStep } from "./steps/state";
import { stateCodeStep } from "./steps/state-code";
import { testStateStep } from "./steps/test-state";
import { topicStep } from "./steps/topic";

export const STAGE_TABLE = {
  judge: judgeStep,
  topic: topicStep,
  select: selectStep,
  state: stateStep,
  state_code: stateCodeStep,
  operations: operationsStep,
  methods: methodsStep,
  assemble: assembleStep,
  test_state: testStateStep,
  quality: qualityStep,
} satisfies Record<Stage, StageSpec>;

const isStage = (name: string): name is Stage => (STAGES as readonly string[]).includes(name);

/** The spec of a stored stage name; undefined for a name no stage has (a row from another version). */
export const stageSpecOf = (name: string): StageSpec | undefined =>
  isStage(name) ? STAGE_TABLE[name] : undefined;
