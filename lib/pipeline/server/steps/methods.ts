import "server-only";
/** Methods: one Python method per operation. */
import { OperationsSchema, StateCodeSchema, StateSpaceSchema } from "../../pipeline.schema";
import { writeMethods } from "../../stages/write-methods";
import { chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";

export const methodsStep = defineStage({
  compute: chainCompute(({ topic, earlier }, { deps }) =>
    writeMethods(
      {
        topic,
        state: need(earlier, "state", StateSpaceSchema),
        stateCode: need(earlier, "state_code", StateCodeSchema),
        operations: need(earlier, "operations", OperationsSchema).operations,
      },
      deps,
    ),
  ),
});
