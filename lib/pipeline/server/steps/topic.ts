import "server-only";
/** Topic: the environment a stateful task calls for (summary, introduction, scores). */
import { inferTopic } from "../../stages/infer-topic";
import { TaskInputSchema, defineStage } from "../stage-spec";

export const topicStep = defineStage({
  compute: ({ step, deps }) => inferTopic(TaskInputSchema.parse(step.input), deps),
});
