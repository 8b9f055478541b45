/**
 * Asks the model for a gold solution when a scenario has none stored and no rollout reached
 * reward 1: the full tool-call sequence, planned from the initial state it can see. The answer is
 * only a candidate — the proof replays it in the sandbox, and a wrong one fails visibly.
 */
import { z } from "zod";
import { type Result, err, ok } from "../core/result";
import { type LlmClient, type LlmError, chatParsed, parseJsonWith } from "../llm";
import type { JsonObject, Tool } from "../sandbox";
import { type GoldCall, GoldCallSchema } from "./scenario.schema";

export const GOLD_TAG = "[stage:gold_calls]";

const AnswerSchema = z.object({ analysis: z.string().default(""), calls: z.array(GoldCallSchema).min(1) });

const SYSTEM = `${GOLD_TAG}
You are an expert operator of a stateful tool environment. You see its tools, its full initial state and a task. Write the exact sequence of tool calls that completes the task, in order, using only identifiers present in the state (or returned by earlier calls in a predictable way).
Answer with one JSON object: {"analysis": "<plan>", "calls": [{"name": "<tool>", "arguments": {...}}, ...]}`;

export type GoldRequest = { task: string; initialState: JsonObject; tools: Tool[]; introduction: string };

export async function requestGoldCalls(
  input: GoldRequest,
  deps: { llm: LlmClient; model: string; cacheSalt?: string },
): Promise<Result<GoldCall[], LlmError>> {
  const names = new Set(input.tools.map((t) => t.function.name));
  const toolList = input.tools
    .map(
      (t) =>
        `- ${t.function.name}(${Object.keys(t.function.parameters.properties).join(", ")}): ${t.function.description.split("\n")[0] ?? ""}`,
    )
    .join("\n");
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      purpose: "gold solution for the validator proof",
      cacheSalt: deps.cacheSalt,
      temperature: 0,
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Environment\n${input.introduction}\n\n# Tools\n${toolList}\n\n# Initial state\n${JSON.stringify(input.initialState, null, 2)}\n\n# Task\n${input.task}`,
        },
      ],
    },
    (r) => {
      const parsed = parseJsonWith(AnswerSchema, r.content);
      if (!parsed.ok) return parsed;
      const unknown = parsed.value.calls.filter((c) => !names.has(c.name)).map((c) => c.name);
      return unknown.length
        ? err(`unknown tools: ${unknown.join(", ")}; use only: ${[...names].join(", ")}`)
        : ok(parsed.value.calls);
    },
  );
  return reply.ok ? ok(reply.value.value) : reply;
}
