/**
 * Logic modelling, step 3 (spec §3.3): the operations (tools), split into queries and state
 * changes, going beyond the example task. Names must be unique public Python identifiers; the
 * re-ask shows the model which ones are not.
 */
import { err, ok } from "../../core/result";
import { chatParsed, parseJsonWith } from "../../llm";
import {
  type Operation,
  OperationsSchema,
  type StateCode,
  type StateSpace,
  type Topic,
} from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";
import { describeTopic } from "./infer-state";
import { describeState } from "./write-state-code";

const SYSTEM = `${stageTag("operations")}
You design the operations (tools) a simulated environment must support, given its state and class definition. Split them into information queries (read only) and state changes. Cover the example task and go beyond it: lookups by id and by name, listing and filtering, history and counts, edits, cancellations, and operations that enforce the rules, so that many different tasks can be solved in this environment. Use snake_case method names.
Answer with one JSON object:
{"analysis": "<which operations the tasks need and how the rules constrain them>",
 "operations": [{"name": "get_order", "description": "<what it does>", "type": "query" | "state_change"}]}`;

export async function inferOperations(
  input: { topic: Topic; state: StateSpace; stateCode: StateCode },
  deps: StageDeps,
): StageResult<{ operations: Operation[] }> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.logic,
      purpose: "infer operations",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `${describeTopic(input.topic)}\n\n${describeState(input.state)}\n\n# Class Definition\n\`\`\`python\n${input.stateCode.code}\`\`\``,
        },
      ],
    },
    (r) => {
      const parsed = parseJsonWith(OperationsSchema, r.content);
      if (!parsed.ok) return parsed;
      const names = parsed.value.operations.map((o) => o.name);
      const dupes = names.filter((n, i) => names.indexOf(n) !== i);
      if (dupes.length)
        return err(`operation names must be unique; repeated: ${[...new Set(dupes)].join(", ")}`);
      return ok(parsed.value.operations);
    },
    reasksFor(deps, "operations"),
  );
  if (!reply.ok) return reply;
  return ok({ operations: reply.value.value });
}
