/**
 * The RL environment server driven by real clients: full episodes over HTTP and WebSocket,
 * concurrent sessions, token protection, idle reaping. Real Postgres, real sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { useTestDatabase } from "@/tests/db";
import { seedServedDataset } from "@/tests/served-dataset";
import type { Catalog } from "../catalog";
import { startEnvServer } from "../start-server";
import { wsSession } from "../tests/harness";
import { loadCatalog } from "./load-catalog";

const t = useTestDatabase();
const samples = loadSamples();
let sandbox: SandboxRunner;
let catalog: Catalog;
let server: Awaited<ReturnType<typeof startEnvServer>>;
const TOKEN = "test-token-123";
const base = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: WORKERS });
  const { id: projectId } = await createTestProject(t.db, "serve");
  await seedServedDataset(t.db, sandbox, projectId, samples);
  catalog = await loadCatalog(t.db, projectId, "served");
  server = await startEnvServer(catalog, sandbox, {
    port: 0,
    host: "127.0.0.1",
    token: TOKEN,
    maxSessions: 16,
    sandboxWorkers: WORKERS,
    maxSteps: 40,
    idleMs: 60_000,
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

type Reply = {
  reward: number | null;
  done: boolean;
  observation: { metadata: Record<string, unknown> };
  error?: unknown;
};
const WORKERS = 4;

/** Each sample scenario's reference solution: replaying it must earn reward 1. */
const goldCases = samples.flatMap((s) =>
  s.scenarios.map((sc) => ({ id: `${s.slug}/${sc.task_id}`, gold: sc.gold_calls })),
);

async function post(path: string, body: unknown, token = TOKEN) {
  const res = await fetch(base() + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Reply };
}

const wsClient = () => wsSession(`${base().replace("http", "ws")}/ws?token=${TOKEN}`);

describe("environment server", () => {
  it("refuses requests without the token, but answers /health", async () => {
    expect((await fetch(`${base()}/health`)).status).toBe(200);
    expect((await post("/reset", {}, "wrong")).status).toBe(401);
    const ws = new WebSocket(`${base().replace("http", "ws")}/ws`);
    await expect(
      new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      }),
    ).rejects.toThrow(/401/);
  });

  it("plays a full episode over HTTP: reset, gold tool calls, submit → reward 1", async () => {
    const { id, gold } = goldCases[0]!;
    const reset = await post("/reset", { scenario_id: id });
    expect(reset.body).toMatchObject({
      done: false,
      reward: null,
      observation: { metadata: { scenario_id: id } },
    });
    const episode = reset.body.observation.metadata.episode_id as string;
    const key = reset.body.observation.metadata.session_key as string;
    for (const call of gold)
      expect(
        (
          await post("/step", {
            episode_id: episode,
            session_key: key,
            action: { tool_name: call.name, arguments: call.arguments },
          })
        ).body.done,
      ).toBe(false);
    const state = await fetch(`${base()}/state?episode_id=${episode}&session_key=${key}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(await state.json()).toMatchObject({ step_count: gold.length });
    const end = await post("/step", {
      episode_id: episode,
      session_key: key,
      action: { tool_name: "submit" },
    });
    expect(end.body).toMatchObject({ done: true, reward: 1 });
    // As OpenEnv: a step after the end is an observation with done=True, and earns nothing more.
    expect(
      await post("/step", { episode_id: episode, session_key: key, action: { tool_name: "submit" } }),
    ).toMatchObject({ status: 200, body: { done: true, reward: null } });
  });

  it("runs every sample scenario concurrently over WebSockets (as many at once as workers); gold earns 1, doing nothing earns less", async () => {
    const play = async ({ id, gold }: (typeof goldCases)[number]) => {
      const client = wsClient();
      const reset = await client.send({ type: "reset", data: { scenario_id: id } });
      expect(reset).toMatchObject({ type: "observation", data: { done: false } });
      for (const call of gold)
        await client.send({ type: "step", data: { tool_name: call.name, arguments: call.arguments } });
      const state = await client.send({ type: "state" });
      expect(state).toMatchObject({ type: "state", data: { step_count: gold.length } });
      const end = await client.send({ type: "step", data: { tool_name: "submit" } });
      const noop = await client
        .send({ type: "reset", data: { scenario_id: id } })
        .then(() => client.send({ type: "step", data: { tool_name: "submit" } }));
      void client.send({ type: "close" }).catch(() => undefined);
      await client.closed;
      return { gold: end.data.reward, noop: noop.data.reward };
    };
    const rewards: { gold: unknown; noop: unknown }[] = [];
    for (let i = 0; i < goldCases.length; i += WORKERS)
      rewards.push(...(await Promise.all(goldCases.slice(i, i + WORKERS).map(play))));
    expect(rewards.length).toBeGreaterThanOrEqual(6);
    for (const r of rewards) {
      expect(r.gold).toBe(1);
      expect(r.noop).toBeLessThan(1);
    }
  });

  it("answers bad messages with a located error and keeps the socket", async () => {
    const client = wsClient();
    expect(await client.send({ type: "jump" })).toMatchObject({ type: "error", data: { code: "INVALID" } });
    expect(await client.send({ type: "step", data: { tool_name: "x" } })).toMatchObject({
      type: "error",
      data: { code: "NOT_FOUND" },
    });
    client.close();
  });

  it("the Task API lists each split's scenarios as the dataset version holds them", async () => {
    const items = await t.db.datasetItem.findMany({
      where: { datasetVersion: { dataset: { name: "served" } } },
      select: {
        split: true,
        scenario: { select: { externalId: true, environment: { select: { slug: true } } } },
      },
    });
    const env = encodeURIComponent(catalog.name);
    for (const split of ["train", "test"] as const) {
      const held = items
        .filter((i) => i.split === split.toUpperCase())
        .map((i) => `${i.scenario.environment.slug}/${i.scenario.externalId}`)
        .sort();
      const { body } = await post(`/${env}/tasks`, { split });
      const listed = (body as unknown as { tasks: { id: string; index: number }[] }).tasks;
      expect(listed.map((task) => task.id).sort()).toEqual(held);
      expect(listed.map((task) => task.index)).toEqual(held.map((_, i) => i));
    }
    expect(items.some((i) => i.split === "TEST")).toBe(true);
  });

  it("reaps idle sessions", async () => {
    let clock = 0;
    const { createSessions } = await import("../sessions");
    const sessions = createSessions(catalog, sandbox, {
      maxSessions: 4,
      sandboxWorkers: WORKERS,
      maxSteps: 40,
      idleMs: 1000,
      now: () => clock,
    });
    const r = await sessions.reset({ scenario_id: goldCases[0]!.id }, { key: "k" });
    expect(r.ok && sessions.size()).toBe(1);
    clock = 5000;
    expect(await sessions.reap()).toBe(1);
    expect(sessions.size()).toBe(0);
    if (r.ok)
      expect(await sessions.step(r.value.id, { tool_name: "submit", arguments: {} }, "k")).toMatchObject({
        ok: false,
        error: { code: "NOT_FOUND" },
      });
  });
});
