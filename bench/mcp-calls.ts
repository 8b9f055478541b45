/**
 * `npm run bench -- mcp-calls`: where an MCP tool call's time goes, against the WebSocket step in
 * the same run. One server and its clients in this process, one session at a time on the counter
 * (get_count: the sandbox's share is a fraction of a millisecond), so the figures are the
 * protocols' own cost: wall time and this process's CPU (client and server together) per call
 * and per episode opened and closed, after a warm-up as long as the measurement. Bare requests go
 * through the serve bench's HTTP client (bench/http-client.ts); one row repeats the bare call over
 * Node's fetch, to show what that client adds. The serve bench's MCP lanes measure the same paths under load;
 * this one says which side of the wire the time is on.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { createSandboxRunner } from "@/lib/sandbox";
import { startEnvServer } from "@/lib/envserver/start-server";
import { counterCatalog, loopbackOptions, wsSession } from "@/lib/envserver/tests/harness";
import { round, writeResult } from "./bench-util";
import { httpRequest } from "./http-client";

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 1500);
const EPISODES = Number(process.env.BENCH_MCP_EPISODES ?? 200);
const JSON_AND_SSE = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * `n` calls of `f` after as many untimed ones: the first paths measured in a fresh process are
 * slow until V8 has optimized the server's code (a plain HTTP step cost 0.59 ms of CPU after 200
 * warm-up calls, 0.26 ms after 1,500 more). With `toolCalls`,
 * the first and last replies must be the tool's own answer (`"success": true`, as text or inside a JSON string): a refusal (capacity, an
 * ended episode) would measure the error path instead.
 */
async function measure(n: number, f: () => Promise<unknown>, toolCalls = false) {
  const check = (reply: unknown) => {
    const text = typeof reply === "string" ? reply : JSON.stringify(reply);
    if (toolCalls && !/success\\*":true/.test(text))
      throw new Error(`not a tool's answer: ${text.slice(0, 300)}`);
  };
  check(await f());
  for (let i = 0; i < n; i++) await f();
  const t = performance.now();
  const cpu = process.cpuUsage();
  let last: unknown;
  for (let i = 0; i < n; i++) last = await f();
  const used = process.cpuUsage(cpu);
  check(last);
  return { wallMs: (performance.now() - t) / n, cpuMs: (used.user + used.system) / 1000 / n };
}

export async function main() {
  const sandbox = createSandboxRunner({ poolSize: 2 });
  // No step budget: every call below is a real tool call, not a refusal after the budget.
  const server = await startEnvServer(
    counterCatalog(),
    sandbox,
    loopbackOptions({ maxSteps: Number.MAX_SAFE_INTEGER }),
  );
  const base = `http://127.0.0.1:${server.port}`;
  const getCount = { name: "get_count", arguments: {} };
  const rows: Record<string, { wallMs: number; cpuMs: number }> = {};
  try {
    const ws = wsSession(`ws://127.0.0.1:${server.port}/ws`);
    const reset = () => ws.send({ type: "reset", data: { diff: true, scenario_id: "counter/c1" } });
    rows.wsEpisode = await measure(EPISODES, reset);
    await reset();
    rows.wsCall = await measure(
      CALLS,
      () => ws.send({ type: "step", data: { tool_name: "get_count", arguments: {} } }),
      true,
    );
    ws.close();

    await ws.closed;

    // The plain HTTP step on an episode: what any POST per call costs here, MCP or not.
    const started = (await fetch(`${base}/reset`, {
      method: "POST",
      headers: JSON_AND_SSE,
      body: JSON.stringify({ scenario_id: "counter/c1", diff: true }),
    }).then((r) => r.json())) as { observation: { metadata: { episode_id: string; session_key: string } } };
    const step = JSON.stringify({
      ...started.observation.metadata,
      action: { tool_name: "get_count", arguments: {} },
    });
    const stepUrl = new URL(`${base}/step`);
    rows.httpCall = await measure(
      CALLS,
      () => httpRequest(stepUrl, "POST", JSON_AND_SSE, step).then((r) => r.text),
      true,
    );
    await fetch(`${base}/close`, {
      method: "POST",
      headers: JSON_AND_SSE,
      body: JSON.stringify(started.observation.metadata),
    });

    const sdk = async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp?scenario=counter/c1`));
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(transport);
      return { client, transport };
    };
    rows.sdkEpisode = await measure(EPISODES, async () => {
      const { client, transport } = await sdk();
      await transport.terminateSession();
      await client.close();
    });
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const inSession = (id: string) => ({
      ...JSON_AND_SSE,
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    });
    const mcpUrl = new URL(`${base}/mcp`);
    const startUrl = new URL(`${base}/mcp?scenario=counter/c1`);
    rows.rawEpisode = await measure(EPISODES, async () => {
      const res = await httpRequest(startUrl, "POST", JSON_AND_SSE, init);
      const id = String(res.headers["mcp-session-id"] ?? "");
      await httpRequest(mcpUrl, "DELETE", inSession(id));
    });

    const { client, transport } = await sdk();
    rows.sdkCall = await measure(CALLS, () => client.callTool(getCount), true);
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: getCount });
    const id = transport.sessionId ?? "";
    rows.rawCall = await measure(
      CALLS,
      () => httpRequest(mcpUrl, "POST", inSession(id), call).then((r) => r.text),
      true,
    );
    // The same request through Node's fetch: what that client adds.
    rows.rawCallFetch = await measure(
      CALLS,
      () => fetch(mcpUrl, { method: "POST", headers: inSession(id), body: call }).then((r) => r.text()),
      true,
    );
    await transport.terminateSession();
    await client.close();

    // Upstream OpenEnv's JSON-RPC on the same /mcp (no SDK on either side): what the SDK's server
    // adds to a request, over the same HTTP.
    const openenv = (method: string, params: Record<string, unknown>) =>
      httpRequest(
        mcpUrl,
        "POST",
        JSON_AND_SSE,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      ).then((r) => JSON.parse(r.text) as { result: { session_id: string } });
    rows.openenvEpisode = await measure(EPISODES, async () => {
      const { result } = await openenv("openenv/session/create", { scenario_id: "counter/c1", diff: true });
      await openenv("openenv/session/close", { session_id: result.session_id });
    });
    const { result: oe } = await openenv("openenv/session/create", { scenario_id: "counter/c1", diff: true });
    const oeCall = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { ...getCount, session_id: oe.session_id },
    });
    rows.openenvCall = await measure(
      CALLS,
      () => httpRequest(mcpUrl, "POST", JSON_AND_SSE, oeCall).then((r) => r.text),
      true,
    );
    await openenv("openenv/session/close", { session_id: oe.session_id });

    const created = (await fetch(`${base}/mcp/episodes`, {
      method: "POST",
      body: JSON.stringify({ scenario_id: "counter/c1" }),
    }).then((r) => r.json())) as { url: string };
    const modern = new ClientV2(
      { name: "bench", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new TransportV2(new URL(base + created.url)));
    rows.modernCall = await measure(CALLS, () => modern.callTool(getCount), true);
    await modern.close();
    await fetch(base + created.url, { method: "DELETE" });
  } finally {
    await server.stop();
    await sandbox.close();
  }

  const metrics: Record<string, number> = {};
  for (const [name, { wallMs, cpuMs }] of Object.entries(rows)) {
    metrics[`${name}WallMs`] = round(wallMs, 3);
    metrics[`${name}CpuMs`] = round(cpuMs, 3);
  }
  const vs = (row: string, baseline: string) =>
    round((rows[row]?.cpuMs ?? 0) / (rows[baseline]?.cpuMs ?? 1), 2);
  Object.assign(metrics, {
    sdkCallCpuVsWs: vs("sdkCall", "wsCall"),
    rawCallCpuVsWs: vs("rawCall", "wsCall"),
    rawCallFetchCpuVsWs: vs("rawCallFetch", "wsCall"),
    httpCallCpuVsWs: vs("httpCall", "wsCall"),
    modernCallCpuVsWs: vs("modernCall", "wsCall"),
    sdkEpisodeCpuVsWs: vs("sdkEpisode", "wsEpisode"),
    rawEpisodeCpuVsWs: vs("rawEpisode", "wsEpisode"),
    openenvCallCpuVsWs: vs("openenvCall", "wsCall"),
    openenvEpisodeCpuVsWs: vs("openenvEpisode", "wsEpisode"),
  });
  console.log("per call / per episode, one session at a time (this process's CPU: client and server)");
  for (const [name, { wallMs, cpuMs }] of Object.entries(rows))
    console.log(`${name.padEnd(12)} wall ${wallMs.toFixed(3)} ms  cpu ${cpuMs.toFixed(3)} ms`);
  console.log(
    `CPU vs the WebSocket: SDK client call ${metrics.sdkCallCpuVsWs}×, bare JSON-RPC POST ${metrics.rawCallCpuVsWs}× (${metrics.rawCallFetchCpuVsWs}× over fetch), ` +
      `plain HTTP /step ${metrics.httpCallCpuVsWs}×, ` +
      `SDK 2.x at an episode URL ${metrics.modernCallCpuVsWs}×; SDK session ${metrics.sdkEpisodeCpuVsWs}×, bare initialize+DELETE ${metrics.rawEpisodeCpuVsWs}×; ` +
      `OpenEnv JSON-RPC call ${metrics.openenvCallCpuVsWs}×, its create+close ${metrics.openenvEpisodeCpuVsWs}×`,
  );
  writeResult("mcp-calls", metrics, {
    purpose: "diagnosis of the serve bench's MCP lane (its target: MCP ≥ 0.67× the WebSocket's steps/s)",
  });
}
