/**
 * Upstream OpenEnv's clients and validator against this server, message for message. Encoded from
 * meta-pytorch/OpenEnv at commit 685de411e5f77286b0fd94798d42c4467cf8a1bc (2026-05-01), and
 * re-read at huggingface/OpenEnv (the project's new home), where the wire is unchanged:
 * generic_client.py at 48cfe95e217a4e8ab572f7975ed2a13c64891452 (same messages; the newer
 * env_client adds reconnects and a session helper, not messages), env_server/http_server.py at
 * 434bb1dcf892119b1d7344c7fc1c1459a7da390a (the same routes plus the Task API, task-api.test.ts,
 * and `/ws?session_id=`, openenv-mcp-client.test.ts), and cli/_validation.py at
 * e7a237df3d633e3e39bba86c33770312575df02e plus its newest indexed text (the same six criteria;
 * requests no longer follow redirects, and the URL may carry no credentials, query or fragment, so
 * `openenv validate --url` checks a server reachable without a token, as on loopback):
 * - src/openenv/core/env_client.py + generic_client.py: `GenericEnvClient` opens `<base>/ws` with
 *   no headers, sends `{"type": "reset", "data": kwargs}`, `{"type": "step", "data": action}`,
 *   `{"type": "state"}`, `{"type": "close"}`; raises on any `{"type": "error"}` reply; reads
 *   `observation`, `reward`, `done` from an observation's data;
 * - src/openenv/core/env_server/types.py: ResetResponse / StepResponse (`extra="forbid"`:
 *   exactly observation, reward, done), State (episode_id, step_count), EnvironmentMetadata
 *   (`extra="forbid"`), HealthResponse (`extra="forbid"`);
 * - src/openenv/core/env_server/http_server.py: the stateless HTTP routes, POST /mcp JSON-RPC;
 * - src/openenv/cli/_validation.py: `validate_running_environment`'s criteria.
 * Credentials: upstream's clients take none, but `websockets` (python-websockets/websockets
 * src/websockets/client.py, `ClientProtocol.connect`, commit 030dc356508b6717d1fa6baf32b3da0f3d965373)
 * and `requests` turn a URL's `user:password@` into `Authorization: Basic`, so a token travels in
 * the base URL (`http://envstudio:<token>@host:port`) with no client change.
 * The typed client EnvStudio exports (lib/export/formats/openenv-templates.ts) declares
 * `snapshot: dict = {}` on its State, so a null snapshot is rejected there.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { accessPolicy } from "../auth";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions, wsSession } from "./harness";

let sandbox: SandboxRunner;
let open: Awaited<ReturnType<typeof startEnvServer>>;
let guarded: Awaited<ReturnType<typeof startEnvServer>>;
const TOKEN = "a-configured-token-42";
const base = (s = open) => `http://127.0.0.1:${s.port}`;
const ADD_1 = { tool_name: "add", arguments: { amount: 1 }, metadata: {} }; // EnvStudioAction(...).model_dump()

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 3 });
  const opts = loopbackOptions({ sandboxWorkers: 3 });
  open = await startEnvServer(counterCatalog(), sandbox, opts);
  guarded = await startEnvServer(counterCatalog(), sandbox, { ...opts, token: TOKEN });
});
afterAll(async () => {
  await open?.stop();
  await guarded?.stop();
  await sandbox?.close();
});

const postJson = async (path: string, body: unknown, headers: Record<string, string> = {}, s = open) => {
  const res = await fetch(base(s) + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      observation: Record<string, unknown> & { metadata: Record<string, string> };
    },
  };
};
const getJson = async (path: string, headers: Record<string, string> = {}, s = open) => {
  const res = await fetch(base(s) + path, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
/** fetch() overrides Host; a rebinding attack's requests carry the attacker's name in it. */
const statusWithHost = (port: number, path: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    request({ port, host: "127.0.0.1", path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on("error", reject)
      .end();
  });
/** What `requests` and `websockets` send for a URL with credentials, `http://user:<token>@host`. */
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
});

describe("GenericEnvClient over /ws (no headers, loopback bind)", () => {
  it("plays an episode; a step after the end is an observation with done=True; state keeps the snapshot", async () => {
    const env = wsSession(`ws://127.0.0.1:${open.port}/ws`);
    const reset = await env.send({ type: "reset", data: {} });
    expect(reset.type).toBe("observation");
    expect(Object.keys(reset.data).sort()).toEqual(["done", "observation", "reward"]);
    expect(reset.data).toMatchObject({ done: false, reward: null });
    expect(await env.send({ type: "step", data: ADD_1 })).toMatchObject({
      type: "observation",
      data: { done: false, observation: { content: { success: true, data: 1 } } },
    });
    const state = await env.send({ type: "state" });
    expect(state).toMatchObject({ type: "state", data: { step_count: 1, snapshot: { count: 1 } } });
    expect(typeof state.data.episode_id).toBe("string");
    expect(
      await env.send({ type: "step", data: { tool_name: "submit", arguments: {}, metadata: {} } }),
    ).toMatchObject({ type: "observation", data: { done: true, reward: 1 } });
    const after = await env.send({ type: "step", data: ADD_1 });
    expect(after).toMatchObject({
      type: "observation",
      data: { done: true, observation: { content: { success: false } } },
    });
    const endState = await env.send({ type: "state" });
    expect(endState).toMatchObject({
      type: "state",
      data: { step_count: 2, done: true, reward: 1, snapshot: { count: 1, log: [""] } },
    });
    // EnvClient.disconnect(): {"type": "close"}, then the server closes the socket normally.
    void env.send({ type: "close" }).catch(() => undefined);
    expect((await env.closed).code).toBe(1000);
  });

  it("reset accepts upstream's ResetRequest fields (seed, episode_id) and rejects a negative seed like it", async () => {
    const env = wsSession(`ws://127.0.0.1:${open.port}/ws`);
    expect(await env.send({ type: "reset", data: { seed: 42, episode_id: "episode-001" } })).toMatchObject({
      type: "observation",
      data: { done: false },
    });
    expect(await env.send({ type: "reset", data: { seed: -1 } })).toMatchObject({ type: "error" });
    env.close();
  });
});

describe("access", () => {
  it("needs no token only on a loopback bind with none configured", () => {
    const generate = () => "generated";
    expect(accessPolicy("127.0.0.1", undefined, generate)).toEqual({ token: null });
    expect(accessPolicy("::1", undefined, generate)).toEqual({ token: null });
    expect(accessPolicy("0.0.0.0", undefined, generate)).toEqual({ token: "generated" });
    expect(accessPolicy("10.1.2.3", "chosen", generate)).toEqual({ token: "chosen" });
    expect(accessPolicy("127.0.0.1", "chosen", generate)).toEqual({ token: "chosen" });
  });

  it("with a token configured, takes it as Basic password (URL credentials), Bearer or ?token=, and refuses none", async () => {
    await expect(wsSession(`ws://127.0.0.1:${guarded.port}/ws`).opened).rejects.toThrow(/401/);
    for (const headers of [basic("envstudio", TOKEN), { authorization: `Bearer ${TOKEN}` }]) {
      const env = wsSession(`ws://127.0.0.1:${guarded.port}/ws`, headers);
      expect(await env.send({ type: "reset", data: {} })).toMatchObject({ type: "observation" });
      env.close();
    }
    const byQuery = wsSession(`ws://127.0.0.1:${guarded.port}/ws?token=${TOKEN}`);
    expect(await byQuery.send({ type: "state" })).toMatchObject({
      type: "error",
      data: { code: "NOT_FOUND" },
    });
    byQuery.close();
    expect((await getJson("/metadata", {}, guarded)).status).toBe(401);
    expect((await getJson("/metadata", basic("x", "wrong"), guarded)).status).toBe(401);
    expect((await getJson("/metadata", basic("x", TOKEN), guarded)).status).toBe(200);
    expect(await getJson("/health", {}, guarded)).toEqual({ status: 200, body: { status: "healthy" } });
  });

  it("without a token on loopback, refuses web pages (Origin) and other Host names (DNS rebinding)", async () => {
    expect((await getJson("/metadata", { origin: "https://evil.example" })).status).toBe(403);
    expect(await statusWithHost(open.port, "/metadata", `evil.example:${open.port}`)).toBe(403);
    expect(await statusWithHost(open.port, "/metadata", `localhost:${open.port}`)).toBe(200);
    await expect(
      wsSession(`ws://127.0.0.1:${open.port}/ws`, { origin: "https://evil.example" }).opened,
    ).rejects.toThrow(/403/);
    expect((await getJson("/metadata", { origin: `http://localhost:${open.port}` })).status).toBe(200);
  });
});

describe("HTTP in upstream's shapes", () => {
  it("stateless /reset, /step and /state answer as a fresh upstream environment would", async () => {
    const reset = await postJson("/reset", undefined);
    expect(reset.status).toBe(200);
    expect(Object.keys(reset.body).sort()).toEqual(["done", "observation", "reward"]);
    const step = await postJson("/step", { action: ADD_1, timeout_s: 30.0 });
    expect(step.status).toBe(200);
    expect(Object.keys(step.body).sort()).toEqual(["done", "observation", "reward"]);
    expect(step.body.done).toBe(true);
    expect(await getJson("/state")).toEqual({ status: 200, body: { episode_id: null, step_count: 0 } });
    await postJson("/close", {
      episode_id: reset.body.observation.metadata.episode_id,
      session_key: reset.body.observation.metadata.session_key,
    });
  });

  it("an HTTP episode: steps name episode_id + session_key; after the end, done=True and the snapshot stays", async () => {
    const { observation } = (await postJson("/reset", { seed: 7 })).body;
    const ids = {
      episode_id: observation.metadata.episode_id,
      session_key: observation.metadata.session_key,
    };
    expect((await postJson("/step", { ...ids, action: ADD_1 })).body).toMatchObject({ done: false });
    expect((await postJson("/step", { ...ids, action: { tool_name: "submit" } })).body).toMatchObject({
      done: true,
      reward: 1,
    });
    expect(await postJson("/step", { ...ids, action: ADD_1 })).toMatchObject({
      status: 200,
      body: { done: true, reward: null },
    });
    const state = await getJson(`/state?episode_id=${ids.episode_id}&session_key=${ids.session_key}`);
    expect(state).toMatchObject({
      status: 200,
      body: { episode_id: ids.episode_id, step_count: 2, snapshot: { count: 1 } },
    });
  });

  it("passes every criterion of upstream's validate_running_environment", async () => {
    const openapi = await getJson("/openapi.json");
    const info = openapi.body.info as { version?: unknown };
    expect(openapi.status).toBe(200);
    expect(typeof info.version).toBe("string");
    expect((info.version as string).startsWith("1.")).toBe(true); // standard profile "openenv-http/1.x"
    const paths = openapi.body.paths as Record<string, unknown>;
    expect(["/reset", "/step", "/state"].every((p) => p in paths)).toBe(true); // mode "simulation"
    expect(await getJson("/health")).toEqual({ status: 200, body: { status: "healthy" } });
    const metadata = await getJson("/metadata");
    expect(metadata.status).toBe(200);
    expect(typeof metadata.body.name).toBe("string");
    expect(typeof metadata.body.description).toBe("string");
    const allowed = ["name", "description", "readme_content", "version", "author", "documentation_url"];
    expect(Object.keys(metadata.body).filter((k) => !allowed.includes(k))).toEqual([]);
    const schema = await getJson("/schema");
    for (const key of ["action", "observation", "state"]) expect(typeof schema.body[key]).toBe("object");
    const mcp = await postJson("/mcp", {});
    expect(mcp.status).toBe(200);
    expect(mcp.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });
});

describe("MCP JSON-RPC", () => {
  const rpc = async (method: string, params: Record<string, unknown> = {}, id: number | string = 1) =>
    (await postJson("/mcp", { jsonrpc: "2.0", method, params, id })).body as Record<string, unknown> & {
      result?: Record<string, unknown>;
      error?: { code: number };
    };

  it("creates a session, lists and calls its tools, closes it; errors carry JSON-RPC codes", async () => {
    const created = await rpc("openenv/session/create", { seed: 1 });
    const { session_id, session_key } = created.result as { session_id: string; session_key: string };
    const listed = await rpc("tools/list", { session_id, session_key }, "a");
    expect(listed).toMatchObject({ jsonrpc: "2.0", id: "a" });
    expect((listed.result?.tools as { name: string; inputSchema: unknown }[]).map((t) => t.name)).toEqual([
      "get_count",
      "add",
      "submit",
    ]);
    expect(
      (await rpc("tools/call", { session_id, session_key, name: "add", arguments: { amount: 1 } })).result,
    ).toMatchObject({ done: false, observation: { content: { data: 1 } } });
    const wrongKey = { session_id, session_key: "not-this-session-key" };
    expect(
      (await rpc("tools/call", { ...wrongKey, name: "add", arguments: { amount: 1 } })).error?.code,
    ).toBe(-32602);
    expect((await rpc("tools/list")).error?.code).toBe(-32602);
    expect((await rpc("no/such")).error?.code).toBe(-32601);
    expect((await rpc("openenv/session/close", { session_id, session_key })).result).toEqual({
      session_id,
      closed: true,
    });
    const garbled = await fetch(`${base()}/mcp`, { method: "POST", body: "{not json" });
    expect(await garbled.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it('answers {type: "mcp"} WebSocket messages for the connection\'s own session', async () => {
    const env = wsSession(`ws://127.0.0.1:${open.port}/ws`);
    await env.send({ type: "reset", data: {} });
    const reply = await env.send({
      type: "mcp",
      data: {
        jsonrpc: "2.0",
        method: "tools/call",
        params: { name: "add", arguments: { amount: 2 } },
        id: 7,
      },
    });
    expect(reply).toMatchObject({
      type: "mcp",
      data: { jsonrpc: "2.0", id: 7, result: { observation: { content: { data: 2 } } } },
    });
    env.close();
  });
});
