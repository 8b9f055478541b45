/**
 * MCP over Streamable HTTP against the official TypeScript SDK client (@modelcontextprotocol/sdk
 * `Client` + `StreamableHTTPClientTransport`): a whole episode on the counter (tools, call,
 * submit, reward 1 on the gold path), then the specification's answers to bad input (protocol
 * version header, unknown or expired session, call after the end, a tool that raises, malformed
 * JSON-RPC, unknown tool, wrong argument types, oversized body), each followed by a request that
 * must still succeed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type IncomingHttpHeaders, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { ENDED_MESSAGE } from "../sessions";
import { startEnvServer } from "../start-server";
import { countersWithExplode, loopbackOptions } from "./harness";

let sandbox: SandboxRunner;
let open: Awaited<ReturnType<typeof startEnvServer>>;
let guarded: Awaited<ReturnType<typeof startEnvServer>>;
let clock = 0;
const IDLE_MS = 60_000;
const TOKEN = "an-mcp-token-for-tests-42";
const mcpUrl = (s = open, query = "") => new URL(`http://127.0.0.1:${s.port}/mcp${query}`);

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 3 });
  const catalog = await countersWithExplode(sandbox);
  const opts = loopbackOptions({ sandboxWorkers: 3, idleMs: IDLE_MS });
  open = await startEnvServer(catalog, sandbox, { ...opts, now: () => clock });
  guarded = await startEnvServer(catalog, sandbox, { ...opts, token: TOKEN });
}, 120_000);
afterAll(async () => {
  await open?.stop();
  await guarded?.stop();
  await sandbox?.close();
});

async function connect(url: URL, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: "envstudio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

const JSON_AND_SSE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
/** A raw request to /mcp, as a client that gets something wrong would send it (a session it
 * starts is ended at once). */
async function raw(method: string, body: string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(mcpUrl(), { method, headers: { ...JSON_AND_SSE, ...headers }, body });
  const text = await res.text();
  const session = res.headers.get("mcp-session-id");
  if (session && body?.includes('"method":"initialize"'))
    await fetch(mcpUrl(), { method: "DELETE", headers: inSession(session) });
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}
const rpc = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const inSession = (id: string) => ({ "mcp-session-id": id, "mcp-protocol-version": LATEST_PROTOCOL_VERSION });

describe("a whole episode through the official TypeScript client", () => {
  it("lists the scenario's tools, calls them, submits for reward 1, and DELETE ends the episode", async () => {
    const liveBefore = open.sessions.live();
    const { client, transport } = await connect(mcpUrl(open, "?scenario=counter/c1"));
    expect(client.getServerVersion()?.name).toBe("envstudio");
    expect(client.getInstructions()).toContain("Add 1 to the counter.");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(open.sessions.live()).toBe(liveBefore + 1);
    await client.ping();

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_count", "add", "submit"]);
    const [getCount, add] = tools;
    expect(getCount?.annotations?.readOnlyHint).toBe(true);
    expect(add?.annotations?.readOnlyHint).toBe(false);
    expect(add?.description).toBe("Add to the counter.");
    expect(add?.inputSchema).toMatchObject({
      type: "object",
      properties: { amount: { type: "integer" }, note: { type: "string" } },
      required: ["amount"],
    });

    const step = await client.callTool({ name: "add", arguments: { amount: 1 } });
    expect(step.isError).toBe(false);
    expect(step.content).toEqual([{ type: "text", text: JSON.stringify({ success: true, data: 1 }) }]);
    expect(step.structuredContent).toMatchObject({
      observation: { success: true, data: 1 },
      reward: null,
      done: false,
      step_count: 1,
    });
    expect((step.structuredContent as { diff: unknown }).diff).toBeTruthy();
    expect(await client.callTool({ name: "get_count", arguments: {} })).toMatchObject({
      isError: false,
      structuredContent: { observation: { data: 1 } },
    });

    const submitted = await client.callTool({ name: "submit", arguments: {} });
    expect(submitted).toMatchObject({ isError: false, structuredContent: { reward: 1, done: true } });

    const after = await client.callTool({ name: "add", arguments: { amount: 1 } });
    expect(after.isError).toBe(true);
    expect(JSON.stringify(after.content)).toContain(ENDED_MESSAGE);

    const id = transport.sessionId ?? "";
    await transport.terminateSession();
    await client.close();
    expect(open.sessions.live()).toBe(liveBefore);
    expect(await raw("POST", rpc("tools/list"), inSession(id))).toMatchObject({
      status: 404,
      body: { error: { code: -32001 } },
    });
  });

  it("picks the scenario from initialize's _meta, or as a reset does when none is named", async () => {
    const transport = new StreamableHTTPClientTransport(mcpUrl());
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("add");
    await transport.terminateSession();
    await client.close();

    const init = await raw(
      "POST",
      rpc("initialize", {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
        _meta: { "envstudio/scenario": "explode/e1" },
      }),
    );
    expect(init).toMatchObject({
      status: 200,
      body: { result: { protocolVersion: LATEST_PROTOCOL_VERSION } },
    });
    expect(
      await raw(
        "POST",
        rpc("initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "r", version: "1" },
        }),
        {},
      ).then((r) => r.status),
    ).toBe(200);
    const unknown = await fetch(mcpUrl(open, "?scenario=nope/none"), {
      method: "POST",
      headers: JSON_AND_SSE,
      body: rpc("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "r", version: "1" },
      }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringContaining("no scenario") as unknown },
    });
  });
});

describe("bad input gets the specification's error and the server keeps serving", () => {
  it("protocol errors over raw HTTP: version header, unknown session, malformed JSON and JSON-RPC, oversized body, GET, notifications", async () => {
    const { client, transport } = await connect(mcpUrl(open, "?scenario=counter/c1"));
    const id = transport.sessionId ?? "";
    const stillServes = async () => expect((await client.listTools()).tools).toHaveLength(3);

    const badVersion = await raw("POST", rpc("tools/list"), {
      ...inSession(id),
      "mcp-protocol-version": "1999-01-01",
    });
    expect(badVersion).toMatchObject({ status: 400, body: { jsonrpc: "2.0", error: { code: -32000 } } });
    expect(JSON.stringify(badVersion.body)).toContain("Unsupported protocol version");
    await stillServes();

    expect(
      await raw("POST", rpc("tools/list"), inSession("00000000-0000-4000-8000-000000000000")),
    ).toMatchObject({
      status: 404,
      body: { error: { code: -32001, message: "Session not found" } },
    });
    await stillServes();

    expect(await raw("POST", "{not json", inSession(id))).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
    expect(
      await raw("POST", JSON.stringify({ jsonrpc: "2.0", id: 3, method: 42 }), inSession(id)),
    ).toMatchObject({
      status: 400,
      body: { jsonrpc: "2.0", error: { code: -32700 } },
    });
    expect(await raw("POST", rpc("no/such/method"), inSession(id))).toMatchObject({
      status: 200,
      body: { error: { code: -32601 } },
    });
    await stillServes();

    const huge = rpc("tools/call", { name: "add", arguments: { amount: 1, note: "x".repeat(2 << 20) } });
    expect(await raw("POST", huge, inSession(id))).toMatchObject({
      status: 413,
      body: { error: { code: -32000 } },
    });
    await stillServes();

    expect(
      await raw(
        "POST",
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        inSession(id),
      ),
    ).toEqual({ status: 202, body: null });
    // The transport reads Node's own headers (mcp-node.ts): Accept, Content-Type and a session
    // id sent twice are judged as the SDK judges them on a fetch Request.
    expect(
      await raw("POST", rpc("tools/list"), { ...inSession(id), accept: "application/json" }),
    ).toMatchObject({
      status: 406,
      body: { error: { code: -32000, message: expect.stringContaining("Not Acceptable") as unknown } },
    });
    expect(
      await raw("POST", rpc("tools/list"), { ...inSession(id), "content-type": "text/plain" }),
    ).toMatchObject({ status: 415, body: { error: { code: -32000 } } });
    const twice = await fetch(mcpUrl(), {
      method: "POST",
      headers: [
        ["content-type", "application/json"],
        ["accept", "application/json, text/event-stream"],
        ["mcp-protocol-version", LATEST_PROTOCOL_VERSION],
        ["mcp-session-id", id],
        ["mcp-session-id", id],
      ],
      body: rpc("tools/list"),
    });
    // Two values are one header, "id, id" (as fetch's Headers joins them): no such session.
    expect(twice.status).toBe(404);
    // An earlier revision the SDK supports is accepted in the header.
    expect(
      (await raw("POST", rpc("tools/list"), { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" }))
        .status,
    ).toBe(200);
    await stillServes();
    expect((await raw("GET", undefined, {})).status).toBe(405);
    // No server-initiated messages, so no SSE stream: GET is 405, with or without a session.
    expect((await raw("GET", undefined, { accept: "text/event-stream", ...inSession(id) })).status).toBe(405);
    expect((await raw("PUT", rpc("tools/list"), inSession(id))).status).toBe(405);
    await stillServes();
    await transport.terminateSession();
    await client.close();
  });

  it("every reply announces its length in bytes and none is chunked", async () => {
    // node:http, not fetch: fetch hides how a body was framed.
    const send = (method: string, body: string | undefined, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
        const req = request(mcpUrl(open, "?scenario=counter/c1"), { method, headers }, (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => (bytes += chunk.length));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
        });
        req.on("error", reject);
        req.end(body);
      });
    const init = rpc("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "framing", version: "1" },
    });
    const started = await send("POST", init, JSON_AND_SSE);
    const id = String(started.headers["mcp-session-id"]);
    const replies = [
      started,
      await send("POST", rpc("tools/call", { name: "add", arguments: { amount: 1 } }), {
        ...JSON_AND_SSE,
        ...inSession(id),
      }),
      await send("POST", JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
        ...JSON_AND_SSE,
        ...inSession(id),
      }),
      await send("POST", rpc("tools/list"), { ...JSON_AND_SSE, ...inSession("no-such-session") }),
      // A refusal whose message is not ASCII ("≥"): its length is bytes, not characters.
      await send(
        "POST",
        init.replace('"params":{', '"params":{"_meta":{"envstudio/seed":-1},'),
        JSON_AND_SSE,
      ),
      // OpenEnv's JSON-RPC on the same path.
      await send("POST", rpc("tools/list"), { "content-type": "application/json" }),
      await send("DELETE", undefined, inSession(id)),
    ];
    // An episode started at POST /mcp/episodes, then ended by DELETE /mcp naming its handle (no
    // SDK transport holds it): both replies are written by EnvStudio, not the SDK.
    const created = await fetch(`http://127.0.0.1:${open.port}/mcp/episodes`, { method: "POST", body: "{}" });
    const { handle } = (await created.json()) as { handle: string };
    replies.push(await send("DELETE", undefined, inSession(handle)));
    expect(created.status).toBe(201);
    expect(created.headers.get("content-length")).not.toBeNull();
    expect(replies.map((r) => r.status)).toEqual([200, 200, 202, 404, 400, 200, 200, 200]);
    for (const reply of replies) {
      expect(reply.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(reply.headers["content-length"])).toBe(reply.bytes);
    }
    expect(replies[4]!.bytes).toBeGreaterThan(0);
  });

  it("tool errors: unknown tool is -32602, wrong argument types and a raising tool are isError results", async () => {
    const { client, transport } = await connect(mcpUrl(open, "?scenario=explode/e1"));
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);

    const wrongType = await client.callTool({ name: "add", arguments: { amount: "three" } });
    expect(wrongType.isError).toBe(true);
    expect(JSON.stringify(wrongType.content)).toContain("Invalid arguments for 'add'");

    const raised = await client.callTool({ name: "explode", arguments: {} });
    expect(raised.isError).toBe(true);
    expect(JSON.stringify(raised.content)).toContain("boom");

    // Not a tool error: arguments that are not an object fail CallToolRequest's own schema.
    const malformed = await raw(
      "POST",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "add", arguments: [1] },
      }),
      inSession(transport.sessionId ?? ""),
    );
    expect(malformed).toMatchObject({ status: 200, body: { id: 9, error: { code: -32602 } } });

    expect(await client.callTool({ name: "add", arguments: { amount: 1 } })).toMatchObject({
      isError: false,
      structuredContent: { observation: { data: 1 } },
    });
    await transport.terminateSession();
    await client.close();
  });

  it("an idle session is reaped with its episode: later requests get 404, at /mcp and at its episode URL", async () => {
    const { client, transport } = await connect(mcpUrl(open, "?scenario=counter/c1"));
    const id = transport.sessionId ?? "";
    const created = await fetch(`http://127.0.0.1:${open.port}/mcp/episodes`, { method: "POST", body: "{}" });
    const episodeUrl = `http://127.0.0.1:${open.port}${((await created.json()) as { url: string }).url}`;
    clock += IDLE_MS + 1;
    expect(await open.sessions.reap()).toBeGreaterThanOrEqual(2);
    expect(await raw("POST", rpc("tools/list"), inSession(id))).toMatchObject({ status: 404 });
    for (const url of [`http://127.0.0.1:${open.port}/mcp/episodes/${id}`, episodeUrl])
      expect((await fetch(url, { method: "DELETE" })).status).toBe(404);
    await client.close();
  });
});

describe("access rules in front of /mcp", () => {
  it("needs the token when one is configured; refuses web pages on an open loopback server", async () => {
    await expect(connect(mcpUrl(guarded))).rejects.toThrow();
    const { client, transport } = await connect(mcpUrl(guarded), { authorization: `Bearer ${TOKEN}` });
    expect((await client.callTool({ name: "add", arguments: { amount: 1 } })).isError).toBe(false);
    await transport.terminateSession();
    await client.close();
    expect((await raw("POST", rpc("tools/list"), { origin: "https://evil.example" })).status).toBe(403);
  });

  it("guards the episode URLs the same way: starting one and speaking MCP at it need the token", async () => {
    const episodes = `http://127.0.0.1:${guarded.port}/mcp/episodes`;
    expect((await fetch(episodes, { method: "POST", body: "{}" })).status).toBe(401);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const created = await fetch(episodes, { method: "POST", headers: auth, body: "{}" });
    expect(created.status).toBe(201);
    const { url } = (await created.json()) as { url: string };
    const at = new URL(`http://127.0.0.1:${guarded.port}${url}`);
    await expect(connect(at)).rejects.toThrow();
    const { client } = await connect(at, auth);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("submit");
    await client.close();
    expect((await fetch(at, { method: "DELETE" })).status).toBe(401);
    expect((await fetch(at, { method: "DELETE", headers: auth })).status).toBe(204);
  });
});
