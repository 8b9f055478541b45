/**
 * A served scenario in MCP's terms (specification 2025-11-25, server/tools): its tools as MCP
 * `Tool`s, and a step's reply as a `CallToolResult`. Shared by the Streamable HTTP endpoint, the
 * stdio server and the OpenEnv JSON-RPC methods.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServedScenario } from "./catalog";
import { SUBMIT_SCHEMA, SUBMIT_TOOL, type StepReply } from "./envserver.schema";

/** The scenario's tools and `submit`: input schemas derived from the signatures, descriptions
 * from the docstrings, `readOnlyHint` on query tools (only they may claim it: nothing else is
 * known not to change the state). */
export function mcpTools(scenario: ServedScenario): Tool[] {
  const queries = new Set(scenario.queryTools ?? []);
  const tools: Tool[] = scenario.tools.map(({ function: f }) => ({
    name: f.name,
    description: f.description,
    inputSchema: { type: "object", ...f.parameters },
    annotations: queries.has(f.name)
      ? { readOnlyHint: true }
      : { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  }));
  tools.push({
    name: SUBMIT_TOOL,
    description: SUBMIT_SCHEMA.function.description,
    inputSchema: { type: "object", properties: {}, required: [] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  });
  return tools;
}

export const hasTool = (scenario: ServedScenario, name: string) =>
  name === SUBMIT_TOOL || scenario.tools.some((t) => t.function.name === name);

const asText = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));

/**
 * A step as a CallToolResult: the observation as text content; `structuredContent` with the
 * observation, the state diff, `reward` and `done`. A tool that raised, a refused call and a call
 * after the end are `isError: true` (the episode's own outcome, not a protocol error).
 */
export function callToolResult(reply: StepReply): CallToolResult {
  const { content, metadata } = reply.observation;
  const { diff, checks, step_count: stepCount, truncated } = metadata;
  return {
    content: [{ type: "text", text: asText(content) }],
    structuredContent: {
      observation: content,
      reward: reply.reward,
      done: reply.done,
      ...(diff === undefined ? {} : { diff }),
      ...(checks === undefined ? {} : { checks }),
      ...(stepCount === undefined ? {} : { step_count: stepCount }),
      ...(truncated === undefined ? {} : { truncated }),
    },
    isError: metadata.is_error === true,
  };
}
