/**
 * One MCP server per episode, on the official SDK's low-level `Server`: `initialize`, `ping` and
 * the notifications are the SDK's; `tools/list` and `tools/call` act on the episode the session
 * started. The transport (Streamable HTTP or stdio) is the caller's.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
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

export function createEpisodeServer(sessions: Sessions, episode: EpisodeHandle): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    // What an agent is asked to do in this episode; the tools are how it does it.
    instructions: `${episode.scenario.task}\n\nCall submit when the task is done: it ends the episode and scores it.`,
  });
  const tools = mcpTools(episode.scenario);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(LooseCallToolSchema, async (loose) => {
    // Already checked against CallToolRequestSchema by the Server (see LooseCallToolSchema).
    const { name, arguments: args = {} } = (loose as unknown as CallToolRequest).params;
    // Unknown tools are protocol errors (the specification's -32602); everything a known tool
    // does, including raising or refusing its arguments, is the tool's result with isError.
    if (!hasTool(episode.scenario, name))
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const step = await sessions.step(episode.id, { tool_name: name, arguments: args }, episode.key);
    if (!step.ok) return { content: [{ type: "text", text: step.error.message }], isError: true };
    return callToolResult(step.value);
  });
  return server;
}
