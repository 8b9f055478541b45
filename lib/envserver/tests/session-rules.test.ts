/**
 * Sessions against real clients and a real sandbox: never more live sessions than sandbox workers
 * (refused at reset, not queued), only the creating client may step, read or close a session,
 * and idle sessions are reaped on the configured timeout.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { availableParallelism } from "node:os";
import {
  SERVE_EPISODES_PER_WORKER,
  sandboxSessionCeiling,
  serveOptionsFromEnv,
  servePoolSize,
  serveSandboxOptions,
  startEnvServer,
} from "../start-server";
import { WS_CLOSE_IDLE } from "../ws-handler";
import { counterCatalog, loopbackOptions, wsSession } from "./harness";

const WORKERS = 2;
let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
let clock = 0;
const IDLE_MS = 60_000;
const url = () => `ws://127.0.0.1:${server.port}/ws`;
const ADD_1 = { tool_name: "add", arguments: { amount: 1 } };

beforeAll(async () => {
  // A lease that waits (nearly) forever: a reset beyond the workers that queued for one, as the
  // server used to, would hang this test instead of getting its answer.
  sandbox = createSandboxRunner({ poolSize: WORKERS, leaseTimeoutMs: 3_600_000 });
  server = await startEnvServer(
    counterCatalog(),
    sandbox,
    loopbackOptions({
      maxSessions: 64,
      sandboxWorkers: WORKERS,
      idleMs: IDLE_MS,
      now: () => clock,
    }),
  );
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      error?: { code: string; message: string };
      observation: { metadata: Record<string, string> };
      done?: boolean;
    },
  };
}
/** OpenEnv's close message; resolves once the server has released the session and closed the socket. */
async function closeSession(env: ReturnType<typeof wsSession>) {
  void env.send({ type: "close" }).catch(() => undefined);
  await env.closed;
}

describe("capacity", () => {
  it("refuses at reset, at once, the sessions beyond the sandbox workers; a freed worker is reusable", async () => {
    const clients = Array.from({ length: WORKERS + 1 }, () => wsSession(url()));
    const replies = await Promise.all(clients.map((c) => c.send({ type: "reset", data: {} })));
    const refused = replies.filter((r) => r.type === "error");
    expect(replies.filter((r) => r.type === "observation")).toHaveLength(WORKERS);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.data).toMatchObject({ code: "CAPACITY" });
    expect(String(refused[0]?.data.message)).toMatch(/2 sandbox workers/);
    const refusedClient = clients[replies.indexOf(refused[0]!)]!;
    const [first, ...others] = clients.filter((c) => c !== refusedClient);
    await closeSession(first!);
    expect(await refusedClient.send({ type: "reset", data: {} })).toMatchObject({ type: "observation" });
    await Promise.all([...others, refusedClient].map(closeSession));
  });

  it("releases the worker of a client that hangs up while its reset is still loading", async () => {
    const env = wsSession(url());
    await env.opened;
    void env.send({ type: "reset", data: {} }).catch(() => undefined);
    env.close();
    await env.closed;
    await vi.waitFor(() => expect(server.sessions.live()).toBe(0), { timeout: 30_000, interval: 50 });
    expect(server.sessions.size()).toBe(0);
  });
});

describe("ownership", () => {
  it("an HTTP session answers only to its session_key; a WebSocket session to its connection alone", async () => {
    const reset = await post("/reset", {});
    const { episode_id, session_key } = reset.body.observation.metadata as {
      episode_id: string;
      session_key: string;
    };
    expect(session_key).toMatch(/^[\w-]{20,}$/);
    for (const key of [undefined, "a-guessed-key-of-enough-length"]) {
      expect((await post("/step", { episode_id, session_key: key, action: ADD_1 })).status).toBe(403);
      expect((await post("/close", { episode_id, session_key: key })).status).toBe(403);
      expect(
        (
          await fetch(
            `http://127.0.0.1:${server.port}/state?episode_id=${episode_id}${key ? `&session_key=${key}` : ""}`,
          )
        ).status,
      ).toBe(403);
      expect((await post("/reset", { episode_id, session_key: key })).status).toBe(403);
    }
    expect((await post("/step", { episode_id, session_key, action: ADD_1 })).body).toMatchObject({
      done: false,
    });
    const byHeader = await fetch(`http://127.0.0.1:${server.port}/state?episode_id=${episode_id}`, {
      headers: { "x-session-key": session_key },
    });
    expect(await byHeader.json()).toMatchObject({ episode_id, step_count: 1 });

    const env = wsSession(url());
    await env.send({ type: "reset", data: {} });
    const wsId = String((await env.send({ type: "state" })).data.episode_id);
    expect(wsId).toMatch(/^ws-/);
    expect((await post("/step", { episode_id: wsId, action: ADD_1 })).status).toBe(403);
    expect((await post("/close", { episode_id: wsId })).status).toBe(403);
    expect((await post("/reset", { episode_id: wsId })).status).toBe(403);
    const mcp = (
      await post("/mcp", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { session_id: wsId, name: "add", arguments: { amount: 1 } },
      })
    ).body as unknown as { error: { data: { code: string } } };
    expect(mcp.error.data.code).toBe("FORBIDDEN");
    // None of that touched the WebSocket session.
    expect(await env.send({ type: "step", data: ADD_1 })).toMatchObject({
      type: "observation",
      data: { observation: { content: { data: 1 } } },
    });
    await closeSession(env);
    expect((await post("/close", { episode_id, session_key })).status).toBe(200);
  });
});

describe("idle reaping", () => {
  it("closes sessions idle past the timeout: the WebSocket is told why, an HTTP episode is gone", async () => {
    const env = wsSession(url());
    await env.send({ type: "reset", data: {} });
    const http = (await post("/reset", {})).body.observation.metadata as {
      episode_id: string;
      session_key: string;
    };
    clock += IDLE_MS / 2;
    expect(await server.sessions.reap()).toBe(0);
    clock += IDLE_MS;
    expect(await server.sessions.reap()).toBe(2);
    const closed = await env.closed;
    expect(closed.code).toBe(WS_CLOSE_IDLE);
    expect(closed.reason).toMatch(/idle/);
    expect(await post("/step", { ...http, action: ADD_1 })).toMatchObject({
      status: 404,
      body: { error: { code: "NOT_FOUND" } },
    });
    expect(server.sessions.live()).toBe(0);
  });

  it("takes the timeout from ENVSTUDIO_SERVE_IDLE_MS and refuses a malformed one by name", () => {
    expect(serveOptionsFromEnv({ ENVSTUDIO_SERVE_IDLE_MS: "90000" }).idleMs).toBe(90_000);
    expect(serveOptionsFromEnv({}).idleMs).toBe(300_000);
    expect(() => serveOptionsFromEnv({ ENVSTUDIO_SERVE_IDLE_MS: "soon" })).toThrow(/ENVSTUDIO_SERVE_IDLE_MS/);
  });

  it("sizes the sandbox pool to the session limit unless SANDBOX_POOL_SIZE caps it, and names a bad cap", () => {
    expect(servePoolSize(64, {})).toBe(64);
    expect(servePoolSize(32, { SANDBOX_POOL_SIZE: "8" })).toBe(8);
    expect(servePoolSize(4, { SANDBOX_POOL_SIZE: "8" })).toBe(4);
    expect(() => servePoolSize(32, { SANDBOX_POOL_SIZE: "lots" })).toThrow(/SANDBOX_POOL_SIZE/);
  });

  it("recycles serve workers after many episodes (fresh module per reset) unless SANDBOX_MAX_EPISODES_PER_WORKER says otherwise", () => {
    expect(serveSandboxOptions(32, {})).toMatchObject({
      poolSize: 32,
      maxEpisodesPerWorker: SERVE_EPISODES_PER_WORKER,
    });
    expect(SERVE_EPISODES_PER_WORKER).toBeGreaterThan(50);
    // Left to resolveOptions, which reads the variable.
    expect(serveSandboxOptions(32, { SANDBOX_MAX_EPISODES_PER_WORKER: "20" })).not.toHaveProperty(
      "maxEpisodesPerWorker",
    );
  });

  it("gives every episode an interpreter of its own with ENVSTUDIO_SERVE_ISOLATION=episode, and refuses other values", () => {
    expect(serveSandboxOptions(32, { ENVSTUDIO_SERVE_ISOLATION: "episode" })).toEqual({
      poolSize: 32,
      maxEpisodesPerWorker: 1,
      workersPerSource: 0,
      spareWorkers: availableParallelism(),
    });
    expect(() => serveSandboxOptions(32, { ENVSTUDIO_SERVE_ISOLATION: "none" })).toThrow(
      /ENVSTUDIO_SERVE_ISOLATION/,
    );
  });

  it("shares workers between sessions of a source, one per core, unless SANDBOX_WORKERS_PER_SOURCE says otherwise", () => {
    expect(serveSandboxOptions(32, {}).workersPerSource).toBe(availableParallelism());
    expect(serveSandboxOptions(32, { SANDBOX_WORKERS_PER_SOURCE: "0" })).not.toHaveProperty(
      "workersPerSource",
    );
    // Shared workers host any number of sessions; one worker each caps sessions at the pool.
    expect(sandboxSessionCeiling({ poolSize: 8, workersPerSource: 2 }, 64)).toBe(64);
    expect(sandboxSessionCeiling({ poolSize: 8, workersPerSource: 0 }, 64)).toBe(8);
  });
});

describe("state diffs", () => {
  it("a step carries metadata.diff only when the reset asked for it; the reward is the same either way", async () => {
    for (const diff of [undefined, false, true]) {
      const s = wsSession(url());
      const reset = await s.send({ type: "reset", data: diff === undefined ? {} : { diff } });
      expect(reset.type).toBe("observation");
      const step = await s.send({ type: "step", data: ADD_1 });
      const metadata = step.data.observation?.metadata as Record<string, unknown>;
      expect(metadata.step_count).toBe(1);
      if (diff === true)
        expect(metadata.diff).toMatchObject({ changed: [{ path: ["count"], old: 0, new: 1 }] });
      else expect(metadata).not.toHaveProperty("diff");
      const submit = await s.send({ type: "step", data: { tool_name: "submit", arguments: {} } });
      expect(submit.data).toMatchObject({ reward: 1, done: true });
      s.close();
      await s.closed;
    }
  });

  it("refuses a diff option that is not a boolean", async () => {
    const s = wsSession(url());
    const reset = await s.send({ type: "reset", data: { diff: "yes" } });
    expect(reset.type).toBe("error");
    expect(JSON.stringify(reset.data)).toMatch(/diff/);
    s.close();
    await s.closed;
  });
});
