/**
 * The serve bench's MCP players. Each episode is one MCP session over Streamable HTTP
 * (specification 2025-11-25, basic/transports and basic/lifecycle), as an MCP agent plays it:
 * `initialize` (the reset: it loads the episode), `notifications/initialized`, a `tools/call`
 * per gold call, `submit`, then DELETE (the session and the episode end).
 * - `openMcp`: the load generator's own client, which sends exactly that on kept-alive
 *   sockets (bench/http-client.ts), as the WebSocket lane's client sends OpenEnv's messages;
 *   it checks every reply the specification's way (status, `Mcp-Session-Id`, the negotiated
 *   version, 202 for the notification, a JSON-RPC result per call).
 * - `openSdkMcp`: the official TypeScript SDK's `Client` on its own transport (Node's fetch),
 *   to show what that client itself costs when it shares the server's cores.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { httpRequest } from "./http-client";
import type { GoldCall, Player } from "./serve-load";

const VERSION = "2025-11-25";
type Structured = { reward?: number | null; done?: boolean };
type CallReply = {
  result?: { isError?: boolean; content?: unknown; structuredContent?: Structured };
  error?: { code: number; message: string };
};

const structured = (r: unknown) => (r as { structuredContent?: Structured }).structuredContent ?? {};

/** One MCP session of the bench's own client. */
class McpSession {
  private id = 0;
  private session = "";
  constructor(private url: URL) {}

  private headers(): Record<string, string> {
    const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    return this.session ? { ...base, "mcp-session-id": this.session, "mcp-protocol-version": VERSION } : base;
  }

  /** One JSON-RPC message POSTed in this session (a request when it has an id). */
  private post(message: Record<string, unknown>) {
    return httpRequest(this.url, "POST", this.headers(), JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  async initialize() {
    const reply = await this.post({
      id: ++this.id,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
    const session = reply.headers["mcp-session-id"];
    const result = (JSON.parse(reply.text) as { result?: { protocolVersion?: string } }).result;
    if (reply.status !== 200 || typeof session !== "string" || result?.protocolVersion !== VERSION)
      throw new Error(`initialize: ${reply.status} ${reply.text.slice(0, 200)}`);
    this.session = session;
    const ack = await this.post({ method: "notifications/initialized" });
    if (ack.status !== 202) throw new Error(`notifications/initialized: ${ack.status} ${ack.text}`);
  }

  async callTool(name: string, args: Record<string, unknown>) {
    const reply = await this.post({ id: ++this.id, method: "tools/call", params: { name, arguments: args } });
    const { result, error } = JSON.parse(reply.text) as CallReply;
    if (reply.status !== 200 || !result) throw new Error(`${name}: ${error?.message ?? reply.status}`);
    return result;
  }

  async end() {
    const reply = await httpRequest(this.url, "DELETE", this.headers());
    if (reply.status !== 200) throw new Error(`DELETE: ${reply.status} ${reply.text.slice(0, 200)}`);
  }
}

/** Plays an episode through `session`-like calls; shared by both clients. */
async function play(
  open: () => Promise<void>,
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  end: () => Promise<void>,
  gold: GoldCall[],
  stepTimes: number[],
) {
  const t0 = performance.now();
  await open();
  const resetMs = performance.now() - t0;
  try {
    for (const step of gold) {
      const t = performance.now();
      const r = await call(step.name, step.arguments);
      stepTimes.push(performance.now() - t);
      if ((r as { isError?: boolean }).isError || structured(r).done)
        throw new Error(
          `step ${step.name}: ${JSON.stringify((r as { content?: unknown }).content).slice(0, 200)}`,
        );
    }
    const ts = performance.now();
    const submit = await call("submit", {});
    const submitMs = performance.now() - ts;
    return { resetMs, submitMs, reward: structured(submit).reward ?? -1 };
  } finally {
    await end();
  }
}

export function openMcp(url: string): Promise<Player> {
  return Promise.resolve({
    episode(gold: GoldCall[], stepTimes: number[]) {
      const session = new McpSession(new URL(url));
      return play(
        () => session.initialize(),
        (name, args) => session.callTool(name, args),
        () => session.end(),
        gold,
        stepTimes,
      );
    },
    close: () => Promise.resolve(),
  });
}

export function openSdkMcp(url: string): Promise<Player> {
  return Promise.resolve({
    episode(gold: GoldCall[], stepTimes: number[]) {
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const client = new Client({ name: "bench", version: "1.0.0" });
      return play(
        () => client.connect(transport),
        (name, args) => client.callTool({ name, arguments: args }),
        async () => {
          await transport.terminateSession();
          await client.close();
        },
        gold,
        stepTimes,
      );
    },
    close: () => Promise.resolve(),
  });
}
