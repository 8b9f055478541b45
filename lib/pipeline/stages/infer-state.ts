/**
 * Logic modelling, step 1 (spec §3.1): state space (entities with attributes) and rules. JSON
 * output with attribute arrays replaces EnvScaler's positional bullet parsing (and its
 * character-set strip bug).
 */
import { ok } from "../../core/result";
import { chatParsed, parseJsonWith } from "../../llm";
import { type StateSpace, StateSpaceSchema, type Topic } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";

const SYSTEM = `${stageTag("state")}
You are an expert environment analyst. Given an environment summary, introduction and one example task, infer the state the environment maintains: the entities, their attributes and the constraints and rules. Size it to support this task and similar tasks in the same environment — not everything the domain could contain, and not only this one task.
Answer with one JSON object:
{"analysis": "<reasoning>",
 "domain": "<the area the environment belongs to in one or two lowercase words, e.g. 'library services', 'e-commerce', 'healthcare'>",
 "entities": [{"entity": "<Name>", "attributes": ["id_field", "..."], "description": "<role of the entity>"}],
 "rules": ["<constraint or business rule>", "..."]}`;

export function describeTopic(topic: Topic): string {
  return `# Environment Summary\n${topic.summary}\n\n# Environment Introduction\n${topic.introduction}\n\n# An Example Task in This Environment\n${topic.task}`;
}

export async function inferState(input: { topic: Topic }, deps: StageDeps): StageResult<StateSpace> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.logic,
      purpose: "infer state space and rules",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: describeTopic(input.topic) },
      ],
    },
    (r) => parseJsonWith(StateSpaceSchema, r.content),
    reasksFor(deps, "state"),
  );
  if (!reply.ok) return reply;
  return ok(reply.value.value);
}
