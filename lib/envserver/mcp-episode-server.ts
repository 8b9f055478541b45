/**
 * One MCP server per episode, on the official SDK's low-level `Server`: `initialize`, `ping`,
 * `server/discover` and the notifications are the SDK's; `tools/list` and `tools/call` act on
 * the episode. Two SDK lines serve it: 1.x (`@modelcontextprotocol/sdk`) for the 2025-11-25
 * sessions at /mcp and over stdio, whose transports hold the session; 2.x
 * (`@modelcontextprotocol/server`) for an episode's own URL, where one instance answers one
 * request of either protocol generation (2026-07-28's per-request form or a 2025 client's
 * stateless one). Both answer through `episodeToolCall`, so the two cannot drift apart.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  ProtocolError,
  ProtocolErrorCode,
  Server as ServerV2,
  type Tool as ToolV2,
} from "@modelcontextprotocol/server";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ServedScenario } from "./catalog";
import { callToolResult, hasTool, mcpTools } from "./mcp-tools";
import type { Sessions } from "./sessions";

export type EpisodeHandle = { id: string; key: string; scenario: ServedScenario };

/** tools/call as the SDK's Protocol first parses it: loose, so that the Server's own check of
 * CallToolRequestSchema answers a malformed call with -32602 (Invalid params) rather than the
 * -32603 a failed parse here would give. */
const LooseCallToolSchema = z.object({ method: z.literal("tools/call"), params: z.unknown() }).passthrough();

export const MCP_SERVER_INFO = { name: "envstudio", version: "0.1.0" } as const;

/** The Server's JSON Schema validator (it checks elicitation replies, which these servers never
 * ask for): one for every session, since each default one builds its own Ajv instance, a cost
 * every MCP session would otherwise pay. */
const sharedValidator = new AjvJsonSchemaValidator();

export function createEpisodeServer(sessions: Sessions, episode: EpisodeHandle): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructionsOf(episode),
    jsonSchemaValidator: sharedValidator,
  });
  const tools = mcpTools(episode.scenario);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(LooseCallToolSchema, async (loose) => {
    // Already checked against CallToolRequestSchema by the Server (see LooseCallToolSchema).
    const { name, arguments: args = {} } = (loose as unknown as CallToolRequest).params;
    const result = await episodeToolCall(sessions, episode, name, args);
    if (result === UNKNOWN_TOOL) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return result;
  });
  return server;
}

/** The same episode on SDK 2.x, for one request at the episode's own URL (mcp-episodes.ts). */
export function createEpisodeServerV2(sessions: Sessions, episode: EpisodeHandle): ServerV2 {
  const server = new ServerV2(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructionsOf(episode),
  });
  // The same tools: 2.x types a schema's properties as JSON values, which derived schemas are.
  const tools = mcpTools(episode.scenario) as ToolV2[];
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", async (request) => {
    const { name, arguments: args = {} } = request.params;
    const result = await episodeToolCall(sessions, episode, name, args);
    if (result === UNKNOWN_TOOL)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return result;
  });
  return server;
}

const UNKNOWN_TOOL = Symbol("unknown tool");

/**
 * A tool call on the episode. Unknown tools are protocol errors (the specification's -32602,
 * thrown by the caller in its SDK's terms); everything a known tool does, including raising or
 * refusing its arguments, is the tool's result with isError.
 */
async function episodeToolCall(
  sessions: Sessions,
  episode: EpisodeHandle,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult | typeof UNKNOWN_TOOL> {
  if (!hasTool(episode.scenario, name)) return UNKNOWN_TOOL;
  const step = await sessions.step(episode.id, { tool_name: name, arguments: args }, episode.key);
  if (!step.ok) return { content: [{ type: "text", text: step.error.message }], isError: true };
  return callToolResult(step.value);
}

/** What an agent is asked to do in this episode; the tools are how it does it. */
const instructionsOf = (episode: EpisodeHandle) =>
  `${episode.scenario.task}\n\nCall submit when the task is done: it ends the episode and scores it.`;
