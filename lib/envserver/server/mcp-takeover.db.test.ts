/**
 * MCP sessions outlive their replica when the journal is on: the official TypeScript client starts
 * a session on a replica in its own process, calls a tool, and the replica is killed with SIGKILL;
 * the same session (its Mcp-Session-Id, no new `initialize`) goes on at another replica, which
 * takes the episode over from the journal. The reward only a replay of the dead replica's call
 * can give is the evidence; and DELETE there ends the episode. Without the journal, or for an
 * ended episode, the session is unknown (404) and the client starts over, as the specification says.
 * An episode's own URL (`/mcp/episodes/<handle>`) moves between replicas the same way.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { type Server, useReplicas } from "../tests/replicas";

const t = useTestDatabase();
const { replica, childReplica } = useReplicas(t);
let b: Server;
beforeAll(async () => void (b = await replica()), 60_000);

const mcpUrl = (port: number) => new URL(`http://127.0.0.1:${port}/mcp?scenario=counter/c1`);

/** The official client on `port`: a new session, or an existing one resumed without `initialize`. */
async function connect(port: number, sessionId?: string) {
  const transport = new StreamableHTTPClientTransport(mcpUrl(port), sessionId ? { sessionId } : {});
  const client = new Client({ name: "envstudio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** A bare tools/list naming `session` on `port`, as a client that lost its session would send it. */
const listIn = (port: number, session: string) =>
  fetch(mcpUrl(port), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

const dataOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.structuredContent as { observation: { data: unknown } }).observation.data;

describe("an MCP session outlives its replica", () => {
  it("goes on at another replica after its own is killed, the dead replica's call replayed", async () => {
    const a = await childReplica();
    const first = await connect(a.port);
    const id = first.transport.sessionId!;
    expect(dataOf(await first.client.callTool({ name: "add", arguments: { amount: 1 } }))).toBe(1);
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));

    const moved = await connect(b.port, id);
    const { tools } = await moved.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["get_count", "add", "submit"]);
    // The count the dead replica left: only a replay of its call gives 1.
    expect(dataOf(await moved.client.callTool({ name: "get_count", arguments: {} }))).toBe(1);
    expect(await moved.client.callTool({ name: "submit", arguments: {} })).toMatchObject({
      isError: false,
      structuredContent: { reward: 1, done: true },
    });
    const row = await t.db.servedEpisode.findUniqueOrThrow({ where: { id } });
    expect(row.endedAt).not.toBeNull();
    // Both replicas' calls in order (submit ends the episode rather than being replayed).
    expect((row.calls as { tool: string }[]).map((c) => c.tool)).toEqual(["add", "get_count"]);
  }, 90_000);

  it("a DELETE at the replica that took it over ends the episode; the session is then unknown", async () => {
    const a = await replica();
    const first = await connect(a.port);
    const id = first.transport.sessionId!;
    await first.client.callTool({ name: "add", arguments: { amount: 2 } });
    const moved = await connect(b.port, id);
    expect(dataOf(await moved.client.callTool({ name: "get_count", arguments: {} }))).toBe(2);
    await moved.transport.terminateSession();
    const gone = await listIn(b.port, id);
    expect(gone.status).toBe(404);
    expect((await t.db.servedEpisode.findUniqueOrThrow({ where: { id } })).endedAt).not.toBeNull();
  }, 90_000);

  it("an episode URL started at one replica answers a 2026-07-28 client at another", async () => {
    const a = await replica();
    const created = await fetch(`http://127.0.0.1:${a.port}/mcp/episodes`, {
      method: "POST",
      body: JSON.stringify({ scenario_id: "counter/c1" }),
    });
    const { url } = (await created.json()) as { url: string };
    const at = (port: number) => new URL(`http://127.0.0.1:${port}${url}`);
    const modern = async (port: number) => {
      const client = new ModernClient(
        { name: "envstudio-test", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new ModernTransport(at(port)));
      return client;
    };
    const there = await modern(a.port);
    await there.callTool({ name: "add", arguments: { amount: 3 } });
    const here = await modern(b.port);
    const count = await here.callTool({ name: "get_count", arguments: {} });
    expect((count.structuredContent as { observation: { data: unknown } }).observation.data).toBe(3);
    expect((await fetch(at(b.port), { method: "DELETE" })).status).toBe(204);
    expect((await fetch(at(b.port), { method: "DELETE" })).status).toBe(404);
  }, 90_000);

  it("an unknown session, or one on a replica without the journal, is 404: the client starts over", async () => {
    const solo = await replica({ journal: undefined });
    const started = await connect(b.port);
    for (const [port, session] of [
      [b.port, "00000000-0000-4000-8000-000000000000"],
      [solo.port, started.transport.sessionId!],
    ] as const) {
      const res = await listIn(port, session);
      expect(res.status).toBe(404);
    }
    await started.transport.terminateSession();
  }, 60_000);
});
