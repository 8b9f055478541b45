/**
 * The routing handle a load balancer hashes on without reading bodies: every HTTP answer about an
 * episode (reset, step, state, close) and the WebSocket upgrade carry `X-Envstudio-Episode`;
 * requests may name the episode by that header or in the path (`/episodes/<id>/step|state|close`)
 * instead of the body or query, and a request naming two different episodes is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { EPISODE_HEADER } from "../http-routes";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions, wsSession } from "./harness";

let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
const base = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 2 });
  server = await startEnvServer(counterCatalog(), sandbox, loopbackOptions());
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

type Body = {
  observation?: { content: unknown; metadata: Record<string, unknown> };
  step_count?: number;
  error?: { code: string; message: string };
};
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, handle: res.headers.get(EPISODE_HEADER), body: (await res.json()) as Body };
}
const ADD = (amount: number) => ({ tool_name: "add", arguments: { amount } });

async function reset(body: Record<string, unknown> = {}) {
  const r = await call("POST", "/reset", { scenario_id: "counter/c1", ...body });
  const meta = r.body.observation?.metadata as { episode_id: string; session_key: string };
  return { ...r, id: meta.episode_id, key: meta.session_key };
}

describe("the routing handle", () => {
  it("is on the reset, step, state and close answers, and on the WebSocket upgrade", async () => {
    const e = await reset();
    expect(e.handle).toBe(e.id);
    const step = await call("POST", "/step", { action: ADD(1), episode_id: e.id, session_key: e.key });
    expect(step).toMatchObject({ status: 200, handle: e.id });
    const state = await call("GET", `/state?episode_id=${e.id}&session_key=${e.key}`);
    expect(state).toMatchObject({ status: 200, handle: e.id, body: { step_count: 1 } });
    // An answer that refuses the episode still names it: the balancer routed by it.
    const foreign = await call("POST", "/step", {
      action: ADD(1),
      episode_id: e.id,
      session_key: "x".repeat(20),
    });
    expect(foreign).toMatchObject({ status: 403, handle: e.id });
    expect(await call("POST", "/close", { episode_id: e.id, session_key: e.key })).toMatchObject({
      status: 200,
      handle: e.id,
    });

    const ws = wsSession(`ws://127.0.0.1:${server.port}/ws`);
    const wsReset = await ws.send({ type: "reset", data: {} });
    const metadata = wsReset.data.observation?.metadata as { episode_id: string };
    expect((await ws.upgraded)["x-envstudio-episode"]).toBe(metadata.episode_id);
    ws.close();
  });

  it("names the episode in place of episode_id: as a request header, or in the path", async () => {
    const e = await reset();
    const byHeader = await call(
      "POST",
      "/step",
      { action: ADD(2) },
      { [EPISODE_HEADER]: e.id, "x-session-key": e.key },
    );
    expect(byHeader).toMatchObject({
      status: 200,
      handle: e.id,
      body: { observation: { content: { data: 2 } } },
    });
    const byPath = await call("POST", `/episodes/${e.id}/step`, { action: ADD(3), session_key: e.key });
    expect(byPath).toMatchObject({
      status: 200,
      handle: e.id,
      body: { observation: { content: { data: 5 } } },
    });
    const state = await call("GET", `/episodes/${e.id}/state`, undefined, { "x-session-key": e.key });
    expect(state).toMatchObject({ status: 200, handle: e.id, body: { step_count: 2 } });
    const close = await call("POST", `/episodes/${e.id}/close`, {}, { "x-session-key": e.key });
    expect(close).toMatchObject({ status: 200, body: { closed: true } });
    expect(await call("GET", `/episodes/${e.id}/state`, undefined, { "x-session-key": e.key })).toMatchObject(
      {
        status: 404,
        handle: e.id,
      },
    );
  });

  it("refuses a request naming two different episodes and changes nothing", async () => {
    const e = await reset();
    const other = await reset();
    const mixed = await call(
      "POST",
      "/step",
      { action: ADD(1), episode_id: e.id, session_key: e.key },
      { [EPISODE_HEADER]: other.id },
    );
    expect(mixed).toMatchObject({ status: 400, body: { error: { code: "INVALID" } } });
    const pathAndBody = await call("POST", `/episodes/${other.id}/step`, {
      action: ADD(1),
      episode_id: e.id,
      session_key: e.key,
    });
    expect(pathAndBody.status).toBe(400);
    const pathAndHeader = await call("GET", `/episodes/${e.id}/state?session_key=${e.key}`, undefined, {
      [EPISODE_HEADER]: other.id,
    });
    expect(pathAndHeader.status).toBe(400);
    expect(await call("GET", `/state?episode_id=${e.id}&session_key=${e.key}`)).toMatchObject({
      body: { step_count: 0 },
    });
    for (const x of [e, other]) await call("POST", "/close", { episode_id: x.id, session_key: x.key });
  });

  it("leaves out of the header an episode id a client chose that a header cannot carry", async () => {
    const e = await reset({ episode_id: "my episode é" });
    expect(e.status).toBe(200);
    expect(e.handle).toBeNull();
    const byPath = await call("POST", `/episodes/${encodeURIComponent(e.id)}/step`, {
      action: ADD(1),
      session_key: e.key,
    });
    expect(byPath).toMatchObject({ status: 200, handle: null });
    await call("POST", "/close", { episode_id: e.id, session_key: e.key });
  });
});
