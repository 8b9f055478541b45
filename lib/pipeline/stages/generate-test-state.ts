/**
 * Quality check, step 1 (spec §4.1): a rich, realistic initial state for testing. Unlike
 * EnvScaler's vacuous setattr "validation", the state is loaded into the sandbox before it is
 * accepted; a load error goes back to the model as a re-ask.
 */
import { z } from "zod";
import { err, ok } from "../../core/result";
import { chatParsed, parseJsonWith } from "../../llm";
import type { Assembled, StateSpace } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";

const SYSTEM = `${stageTag("test_state")}
Given the full source of a Python environment class, produce ONE initial state to instantiate it for testing, as a JSON object whose top-level keys are the class's state attributes (e.g. "products", "orders").
Rules: match the structure, field names, nesting and types exactly; respect the constraints in the methods and docstrings (valid status values, required fields, references must point to existing entities); give each main container 3-5 distinct entries covering different states and value ranges; use natural fictional names, ISO dates and unique ids; no real personal data.
Answer with the JSON object only.`;

const StateObjectSchema = z
  .record(z.string(), z.unknown())
  .refine((o) => Object.keys(o).length > 0, "the state must have at least one attribute");

export async function generateTestState(
  input: { assembled: Assembled; state: StateSpace },
  deps: StageDeps,
): StageResult<{ initialState: Record<string, unknown> }> {
  const { source, className } = input.assembled;
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.testState,
      temperature: 0.5,
      purpose: "generate test initial state",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Entities\n${input.state.entities.map((e) => `- ${e.entity}: ${e.attributes.join(", ")}`).join("\n")}\n\n# Class Source\n\`\`\`python\n${source}\`\`\``,
        },
      ],
    },
    async (r) => {
      const parsed = parseJsonWith(StateObjectSchema, r.content);
      if (!parsed.ok) return parsed;
      const episode = await deps.sandbox.load({ source, className, initialState: parsed.value, tools: [] });
      if (!episode.ok)
        return err(`the environment could not be created with this state: ${episode.error.message}`);
      await episode.value.close();
      return ok(parsed.value);
    },
    reasksFor(deps, "test_state"),
  );
  if (!reply.ok) return reply;
  return ok({ initialState: reply.value.value });
}
