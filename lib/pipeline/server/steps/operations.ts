import "server-only";
/** Operations: the tools the environment offers (queries and state changes). */
import { StateCodeSchema, StateSpaceSchema } from "../../pipeline.schema";
import { inferOperations } from "../../stages/infer-operations";
import { chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";

export const operationsStep = defineStage({
  compute: chainCompute(({ topic, earlier }, { deps }) =>
    inferOperations(
      {
        topic,
        state: need(earlier, "state", StateSpaceSchema),
        stateCode: need(earlier, "state_code", StateCodeSchema),
      },
      deps,
    ),
  ),
});
