/**
 * OpenEnv's MCP JSON-RPC: POST /mcp requests that name no MCP session (mcp-http.ts) and
 * `{type: "mcp"}` WebSocket messages, answered as upstream OpenEnv's http_server.py answers them:
 * always a JSON-RPC envelope (`jsonrpc: "2.0"`, HTTP 200), errors as JSON-RPC error objects with
 * the standard codes. Methods: `tools/list`, `tools/call`, and upstream's session extension
 * `openenv/session/create` / `openenv/session/close`. Tools differ per scenario, so over HTTP
 * the tool methods name a session: its `session_id` alone, as upstream's MCPToolClient sends it
 * (a session created here is keyed by its own unguessable id; `session_key` is still taken for a
 * session a POST /reset started), and `/ws?session_id=` joins that same session. Over a WebSocket
 * they act on that connection's session. A tool call answers a CallToolResult that also carries
 * upstream's reading of it (`data`: the tool's return value) and the step's observation, reward
 * and done.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ResetBodySchema, SUBMIT_SCHEMA } from "./envserver.schema";
import { callToolResult } from "./mcp-tools";
import type { ServeError, Sessions } from "./sessions";
import { formatZodIssues } from "../core/zod-issues";

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
} as const;

const RequestSchema = z.object({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).default({}),
  id: z.union([z.string(), z.number().int()]).nullable().optional(),
});

type Id = string | number | null;
export type RpcReply = {
  jsonrpc: "2.0";
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const failure = (id: Id, code: number, message: string, data?: unknown): RpcReply => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});
const success = (id: Id, result: unknown): RpcReply => ({ jsonrpc: "2.0", id, result });
const fromServe = (id: Id, e: ServeError) =>
  failure(
    id,
    e.code === "INVALID" || e.code === "NOT_FOUND" || e.code === "FORBIDDEN" || e.code === "GONE"
      ? RPC.INVALID_PARAMS
      : RPC.SERVER_ERROR,
    e.message,
    { code: e.code },
  );

const METHODS = new Set(["tools/list", "tools/call", "openenv/session/create", "openenv/session/close"]);

/** A WebSocket's own session; absent over HTTP. */
export type BoundSession = { id: string; key: string };

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export async function handleMcp(sessions: Sessions, raw: unknown, bound?: BoundSession): Promise<RpcReply> {
  const parsed = RequestSchema.safeParse(raw);
  if (!parsed.success) {
    const id =
      typeof raw === "object" && raw !== null && "id" in raw ? ((raw as { id?: unknown }).id as Id) : null;
    return failure(
      typeof id === "string" || typeof id === "number" ? id : null,
      RPC.INVALID_REQUEST,
      `Invalid request: ${formatZodIssues(parsed.error, { root: "request" })}`,
    );
  }
  const { method, params } = parsed.data;
  const id = parsed.data.id ?? null;
  if (!METHODS.has(method)) return failure(id, RPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
  if (method === "openenv/session/create") {
    if (bound) return success(id, { session_id: bound.id });
    const body = ResetBodySchema.safeParse(params);
    if (!body.success)
      return failure(id, RPC.INVALID_PARAMS, formatZodIssues(body.error, { max: 1, withPath: false }));
    // The id is the session's capability: random (122 bits), never chosen by the client.
    const sessionId = randomUUID();
    const r = await sessions.reset({ ...body.data, episode_id: sessionId }, { key: sessionId });
    return r.ok
      ? success(id, { session_id: sessionId, session_key: sessionId, observation: r.value.reply.observation })
      : fromServe(id, r.error);
  }
  const target = bound ?? {
    id: str(params.session_id),
    key: str(params.session_key) ?? str(params.session_id) ?? "",
  };
  if (!target.id)
    return failure(
      id,
      RPC.INVALID_PARAMS,
      "Invalid params - 'session_id' is required (tools differ per scenario: create a session with openenv/session/create)",
    );
  if (method === "openenv/session/close") {
    if (bound)
      return failure(id, RPC.INVALID_REQUEST, "Cannot close active WebSocket-managed session via MCP method");
    const r = await sessions.close(target.id, target.key);
    return r.ok ? success(id, { session_id: target.id, closed: true }) : fromServe(id, r.error);
  }
  if (method === "tools/list") {
    const r = await sessions.step(target.id, { type: "list_tools" }, target.key);
    if (!r.ok) return fromServe(id, r.error);
    const tools = (r.value.observation.tools ?? [SUBMIT_SCHEMA]) as {
      function: { name: string; description: string; parameters: unknown };
    }[];
    return success(id, {
      tools: tools.map((t) => ({
        name: t.function.name,
        description: t.function.description,
        inputSchema: t.function.parameters,
      })),
    });
  }
  // tools/call: a CallToolResult, plus upstream's `data` and the step's observation, reward, done.
  const name = str(params.name);
  if (!name) return failure(id, RPC.INVALID_PARAMS, "Missing 'name' in params");
  const args = params.arguments ?? {};
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return failure(id, RPC.INVALID_PARAMS, "'arguments' must be an object");
  const r = await sessions.step(
    target.id,
    { tool_name: name, arguments: args as Record<string, unknown> },
    target.key,
  );
  return r.ok
    ? success(id, { ...callToolResult(r.value), data: r.value.observation.content, ...r.value })
    : fromServe(id, r.error);
}

/** POST /mcp body text → reply (a body that is not JSON is a JSON-RPC parse error, not HTTP 400). */
export async function handleMcpText(sessions: Sessions, text: string): Promise<RpcReply> {
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    return failure(null, RPC.PARSE_ERROR, "Parse error");
  }
  return handleMcp(sessions, raw);
}
