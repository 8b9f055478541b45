import "server-only";
/** Judge: is the task stateful? A stateful one is mined for a topic next. */
import { JudgeOutputSchema } from "../../pipeline.schema";
import { judgeTask } from "../../stages/judge-task";
import { TaskInputSchema, defineStage } from "../stage-spec";

export const judgeStep = defineStage({
  compute: ({ step, deps }) => judgeTask(TaskInputSchema.parse(step.input), deps),
  follow: (output) => (JudgeOutputSchema.parse(output).stateful ? "topic" : undefined),
});
