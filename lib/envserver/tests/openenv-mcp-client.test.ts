/**
 * Upstream OpenEnv's MCPToolClient against this server, request for request. Encoded from
 * huggingface/OpenEnv src/openenv/core/mcp_client.py at commit
 * 00173d4796e13c8540c453208c919199d8409b21 (`MCPClientBase`, production mode, the default):
 * - `_connect_async`: POST <base>/mcp `{"jsonrpc": "2.0", "method": "openenv/session/create",
 *   "params": {}, "id": n}` with httpx's default headers (no Accept for SSE, no Mcp-Session-Id),
 *   `raise_for_status()`, reads `result.session_id`; then opens `<ws base>/ws?session_id=<id>`
 *   so that reset/step/state act on that same session;
 * - `list_tools`: `tools/list` with params `{"session_id": id}` (no session_key), reads
 *   `result.tools[*]` through `_tool_from_payload` (`name`, `description`,
 *   `input_schema` or `inputSchema`); any error becomes an empty list;
 * - `call_tool`: `tools/call` with `{"name", "arguments", "session_id"}`; an `error` raises
 *   RuntimeError; returns `result["data"]` when the result has it, else the result;
 * - `_parse_result` (WebSocket observations): an observation with `tools` is a
 *   ListToolsObservation whose tools go through `_tool_from_payload` too;
 * - `_close_async`: detaches the WebSocket (`{"type": "close"}`) first, then
 *   `openenv/session/close` with `{"session_id": id}`.
 * The server side of that commit's snapshot (src/openenv/core/env_server/http_server.py at
 * 385de5ebb8d08d51d000d7dfc19de5f3c6a9c215) answers every JSON-RPC error with HTTP 200. Python
 * and upstream's package are not installable here, so its messages are replayed byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions, wsSession } from "./harness";

let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
let nextId = 0;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 2 });
  server = await startEnvServer(counterCatalog(), sandbox, loopbackOptions({ maxSessions: 4 }));
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

type Rpc = {
  jsonrpc: "2.0";
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};
/** `_production_mcp_request`: httpx's `client.post(url, json=…)`, then `raise_for_status()`. */
async function mcpRequest(method: string, params: Record<string, unknown> = {}): Promise<Rpc> {
  const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "*/*" },
    body: JSON.stringify({ jsonrpc: "2.0", method, params, id: ++nextId }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Rpc;
}
/** `_tool_from_payload`. */
const toolFromPayload = (t: Record<string, unknown>) => ({
  name: t.name ?? "",
  description: t.description ?? "",
  input_schema: t.input_schema ?? t.inputSchema ?? {},
});

describe("MCPToolClient (production mode): HTTP /mcp plus /ws?session_id= on one session", () => {
  it("creates a session, lists and calls tools with session_id alone, steps the same episode over /ws, and closes", async () => {
    const created = await mcpRequest("openenv/session/create");
    expect(created.error).toBeUndefined();
    const sessionId = created.result?.session_id as string;
    expect(typeof sessionId).toBe("string");

    const env = wsSession(`ws://127.0.0.1:${server.port}/ws?session_id=${sessionId}`);
    await env.opened;

    const listed = await mcpRequest("tools/list", { session_id: sessionId });
    const tools = (listed.result?.tools as Record<string, unknown>[]).map(toolFromPayload);
    expect(tools.map((t) => t.name)).toEqual(["get_count", "add", "submit"]);
    expect(tools[1]).toMatchObject({
      description: "Add to the counter.",
      input_schema: { required: ["amount"] },
    });

    // call_tool returns result["data"]: the tool's own return value.
    const called = await mcpRequest("tools/call", {
      name: "add",
      arguments: { amount: 1 },
      session_id: sessionId,
    });
    expect(called.error).toBeUndefined();
    expect(called.result?.data).toEqual({ success: true, data: 1 });

    // The WebSocket acts on that same episode: the count the HTTP call made is there.
    const state = await env.send({ type: "state" });
    expect(state).toMatchObject({
      type: "state",
      data: { episode_id: sessionId, step_count: 1, snapshot: { count: 1 } },
    });
    const submitted = await env.send({
      type: "step",
      data: { type: "call_tool", tool_name: "submit", arguments: {} },
    });
    expect(submitted).toMatchObject({ type: "observation", data: { done: true, reward: 1 } });

    // _close_async: the socket detaches first, then the HTTP session is closed.
    void env.send({ type: "close" }).catch(() => undefined);
    expect((await env.closed).code).toBe(1000);
    expect(await mcpRequest("openenv/session/close", { session_id: sessionId })).toMatchObject({
      result: { session_id: sessionId, closed: true },
    });
    expect(server.sessions.live()).toBe(0);
  });

  it("a reset over the attached socket lists tools in the shape _tool_from_payload reads", async () => {
    const sessionId = (await mcpRequest("openenv/session/create")).result?.session_id as string;
    const env = wsSession(`ws://127.0.0.1:${server.port}/ws?session_id=${sessionId}`);
    const reset = await env.send({ type: "reset", data: {} });
    const observed = (reset.data.observation?.tools as Record<string, unknown>[]).map(toolFromPayload);
    expect(observed.map((t) => t.name)).toEqual(["get_count", "add", "submit"]);
    expect(observed[1]?.input_schema).toMatchObject({ properties: { amount: { type: "integer" } } });
    // The reset replaced the episode in the same session: HTTP sees the fresh one.
    const called = await mcpRequest("tools/call", {
      name: "get_count",
      arguments: {},
      session_id: sessionId,
    });
    expect(called.result?.data).toEqual({ success: true, data: 0 });
    env.close();
    await env.closed;
    await mcpRequest("openenv/session/close", { session_id: sessionId });
  });

  it("an unknown session_id: /ws refuses to attach, tools/call is a JSON-RPC error (RuntimeError), never a second episode", async () => {
    const live = server.sessions.live();
    await expect(
      wsSession(`ws://127.0.0.1:${server.port}/ws?session_id=not-a-session`).opened,
    ).rejects.toThrow(/404/);
    const called = await mcpRequest("tools/call", {
      name: "add",
      arguments: { amount: 1 },
      session_id: "not-a-session",
    });
    expect(called.error?.code).toBe(-32602);
    expect(server.sessions.live()).toBe(live);
  });
});
