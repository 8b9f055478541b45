import "server-only";
/** State code: the Python class holding the state space. */
import { StateSpaceSchema } from "../../pipeline.schema";
import { writeStateCode } from "../../stages/write-state-code";
import { chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";

export const stateCodeStep = defineStage({
  compute: chainCompute(({ topic, earlier }, { deps }) =>
    writeStateCode({ topic, state: need(earlier, "state", StateSpaceSchema) }, deps),
  ),
});
