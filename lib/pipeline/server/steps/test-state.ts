import "server-only";
/** Test state: an initial state for the quality check to probe the assembled class with. */
import { AssembledSchema, StateSpaceSchema } from "../../pipeline.schema";
import { generateTestState } from "../../stages/generate-test-state";
import { chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";

export const testStateStep = defineStage({
  compute: chainCompute(({ earlier }, { deps }) =>
    generateTestState(
      {
        assembled: need(earlier, "assemble", AssembledSchema),
        state: need(earlier, "state", StateSpaceSchema),
      },
      deps,
    ),
  ),
});
