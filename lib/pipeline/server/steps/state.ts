import "server-only";
/** State: the environment's entities, attributes and rules, from its topic. */
import { inferState } from "../../stages/infer-state";
import { chainCompute, defineStage } from "../stage-spec";

export const stateStep = defineStage({
  compute: chainCompute(({ topic }, { deps }) => inferState({ topic }, deps)),
});
