/**
 * An episode at its own URL (`/mcp/episodes/<handle>`) against the official TypeScript SDK 2.4
 * client (@modelcontextprotocol/client): a 2026-07-28 client pinned to that revision
 * (`server/discover`, the `_meta` envelope per request) completes an episode; an `auto` client
 * pointed at /mcp falls back to a 2025 session and completes one too; a 2025 client connects to
 * the episode URL statelessly. Then the errors: unknown or ended handle, version header that
 * disagrees with the envelope, malformed JSON, oversized body, unknown tool, bad creation bodies,
 * each followed by a request that must still succeed.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { ENDED_MESSAGE } from "../sessions";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions } from "./harness";

const MODERN = "2026-07-28";
let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
const base = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 2 });
  server = await startEnvServer(counterCatalog(), sandbox, loopbackOptions({ sandboxWorkers: 2 }));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

async function createEpisode(body: unknown = { scenario_id: "counter/c1" }) {
  const res = await fetch(`${base()}/mcp/episodes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function modernClient(url: string, mode: "auto" | { pin: string } = { pin: MODERN }) {
  const client = new Client({ name: "envstudio-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

/** A raw POST as a client that gets something wrong would send it. */
async function raw(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const modernRpc = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } });

async function goldPath(client: Client) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(["get_count", "add", "submit"]);
  expect(tools[0]?.annotations?.readOnlyHint).toBe(true);
  const step = await client.callTool({ name: "add", arguments: { amount: 1 } });
  expect(step).toMatchObject({
    isError: false,
    structuredContent: { observation: { success: true, data: 1 }, reward: null, done: false, step_count: 1 },
  });
  expect(await client.callTool({ name: "submit", arguments: {} })).toMatchObject({
    isError: false,
    structuredContent: { reward: 1, done: true },
  });
  const after = await client.callTool({ name: "add", arguments: { amount: 1 } });
  expect(after.isError).toBe(true);
  expect(JSON.stringify(after.content)).toContain(ENDED_MESSAGE);
}

describe("an episode at its own URL", () => {
  it("a 2026-07-28 client completes an episode, and DELETE ends it (404 after)", async () => {
    const live = server.sessions.live();
    const created = await createEpisode();
    expect(created).toMatchObject({
      status: 201,
      body: { scenario_id: "counter/c1", task: expect.stringContaining("Add 1") as unknown },
    });
    const url = `${base()}${String(created.body.url)}`;
    expect(created.body.url).toBe(`/mcp/episodes/${String(created.body.handle)}`);
    expect(server.sessions.live()).toBe(live + 1);

    const { client } = await modernClient(url);
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getInstructions()).toContain("Add 1 to the counter.");
    expect(client.getServerVersion()?.name).toBe("envstudio");
    await client.close();
    // The episode lives as long as its handle, not a connection: a new client goes on with it.
    const again = await modernClient(url);
    expect(server.sessions.live()).toBe(live + 1);
    await goldPath(again.client);
    // Submitting ended the episode and returned its sandbox worker; the handle still answers.
    expect(server.sessions.live()).toBe(live);
    await again.client.close();
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);
    expect(await raw(url, modernRpc("tools/list"), { "mcp-protocol-version": MODERN })).toMatchObject({
      status: 404,
      body: { error: { code: -32001 } },
    });
  });

  it("a 2025 client reaches the same kind of URL statelessly; an auto client at /mcp falls back to a session", async () => {
    const created = await createEpisode({ scenario_id: "counter/c1", seed: 3 });
    const legacy = new Client({ name: "legacy", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(`${base()}${String(created.body.url)}`));
    await legacy.connect(transport);
    expect(legacy.getProtocolEra()).toBe("legacy");
    expect(transport.sessionId).toBeUndefined();
    await goldPath(legacy);
    await legacy.close();
    await fetch(`${base()}${String(created.body.url)}`, { method: "DELETE" });

    const auto = await modernClient(`${base()}/mcp?scenario=counter/c1`, "auto");
    expect(auto.client.getProtocolEra()).toBe("legacy");
    expect(auto.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await goldPath(auto.client);
    // The session's id is its episode's handle: the same episode answers at its own URL.
    const url = `${base()}/mcp/episodes/${auto.transport.sessionId ?? ""}`;
    const seen = await raw(url, modernRpc("tools/call", { name: "get_count", arguments: {} }), {
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "get_count",
    });
    expect(seen).toMatchObject({ status: 200, body: { result: { isError: true } } });
    expect(JSON.stringify(seen.body)).toContain(ENDED_MESSAGE);
    await auto.transport.terminateSession();
    await auto.client.close();
    expect((await raw(url, modernRpc("tools/list"), { "mcp-protocol-version": MODERN })).status).toBe(404);
  });

  it("DELETE at the episode URL of a live /mcp session ends the session and its episode", async () => {
    const live = server.sessions.live();
    const { client, transport } = await modernClient(`${base()}/mcp?scenario=counter/c1`, "auto");
    const id = transport.sessionId ?? "";
    expect(server.sessions.live()).toBe(live + 1);
    expect((await fetch(`${base()}/mcp/episodes/${id}`, { method: "DELETE" })).status).toBe(204);
    expect(server.sessions.live()).toBe(live);
    // The session is gone too: the same id at /mcp is unknown.
    const gone = await raw(
      `${base()}/mcp`,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      {
        "mcp-session-id": id,
        "mcp-protocol-version": "2025-11-25",
      },
    );
    expect(gone).toMatchObject({ status: 404, body: { error: { code: -32001 } } });
    await client.close();
  });
});

describe("bad input at an episode URL gets the specification's error and the server keeps serving", () => {
  it("handles, headers, bodies and tools", async () => {
    const created = await createEpisode();
    const url = `${base()}${String(created.body.url)}`;
    const { client } = await modernClient(url);
    const stillServes = async () => expect((await client.listTools()).tools).toHaveLength(3);
    const header = { "mcp-protocol-version": MODERN };

    const unknown = `${base()}/mcp/episodes/00000000-0000-4000-8000-000000000000`;
    expect(await raw(unknown, modernRpc("tools/list"), header)).toMatchObject({
      status: 404,
      body: { error: { code: -32001 } },
    });
    expect((await fetch(`${base()}/mcp/episodes/not-a-handle`, { method: "POST", body: "{}" })).status).toBe(
      404,
    );
    await stillServes();

    // The header names one revision and the envelope another: the SDK's header check.
    const mismatch = await raw(url, modernRpc("tools/list"), { "mcp-protocol-version": "2025-11-25" });
    expect(mismatch).toMatchObject({ status: 400, body: { jsonrpc: "2.0", error: { code: -32020 } } });
    // A tools/call must name its method in a header too (2026-07-28's routing headers).
    const noMethodHeader = await raw(
      url,
      modernRpc("tools/call", { name: "get_count", arguments: {} }),
      header,
    );
    expect(noMethodHeader).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    expect(JSON.stringify(noMethodHeader.body)).toContain("Mcp-Method");
    const unsupported = await raw(
      url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: { _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      }),
      { "mcp-protocol-version": "2099-01-01" },
    );
    expect(unsupported).toMatchObject({
      status: 400,
      body: { error: { code: -32022, data: { supported: [MODERN], requested: "2099-01-01" } } },
    });
    const noEnvelopePart = await raw(
      url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
      }),
      header,
    );
    expect(noEnvelopePart).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    await stillServes();

    expect(await raw(url, "{not json", header)).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
    const huge = modernRpc("tools/call", {
      name: "add",
      arguments: { amount: 1, note: "x".repeat(2 << 20) },
    });
    expect((await raw(url, huge, header)).status).toBe(413);
    await stillServes();

    const unknownTool = await client
      .callTool({ name: "no_such_tool", arguments: {} })
      .catch((e: unknown) => e);
    expect(unknownTool).toBeInstanceOf(ProtocolError);
    expect((unknownTool as ProtocolError).code).toBe(-32602);
    const wrongType = await client.callTool({ name: "add", arguments: { amount: "three" } });
    expect(wrongType.isError).toBe(true);
    expect((await fetch(url, { method: "GET" })).status).toBe(405);
    await stillServes();
    await client.close();
    await fetch(url, { method: "DELETE" });

    expect(await createEpisode({ scenario_id: "nope/none" })).toMatchObject({ status: 404 });
    expect(await createEpisode({ scenario_id: 7 })).toMatchObject({
      status: 400,
      body: { error: { code: "INVALID" } },
    });
    expect(await createEpisode({ seed: -1 })).toMatchObject({ status: 400 });
    expect(await createEpisode({ extra: true })).toMatchObject({ status: 400 });
    expect((await fetch(`${base()}/mcp/episodes`, { method: "POST", body: "{nope" })).status).toBe(400);
    expect((await fetch(`${base()}/mcp/episodes`, { method: "GET" })).status).toBe(405);
    expect((await createEpisode({})).status).toBe(201);
  });
});
