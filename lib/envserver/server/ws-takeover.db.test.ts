/**
 * WebSocket episodes outlive their connection and their replica when the journal is on: a new
 * connection to `/ws?episode_id=<id>` with the key the reset returned (header X-Session-Key), on
 * any replica, goes on with the same state, step budget and reward — after the first replica was
 * killed with SIGKILL in its own process, after the client's connection merely dropped, or while
 * an older connection is still open (that one is closed). And the refusals: another key, an ended
 * episode, an unknown one, no key. Without the journal a dropped connection still ends its episode.
 * Evidence is read on the host side: the journal's rows and the rewards only a replay could give.
 */
import WebSocket from "ws";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { type Server, useReplicas } from "../tests/replicas";
import { startEnvServer } from "../start-server";
import { WS_CLOSE_REPLACED } from "../ws-handler";
import { counterCatalog, loopbackOptions, wsSession } from "../tests/harness";

const t = useTestDatabase();
const { sandbox, track, replica, childReplica } = useReplicas(t);

type Episode = { id: string; key: string };
type Session = ReturnType<typeof wsSession>;

/** A new connection and its reset; the episode id and key as the reset observation gives them. */
async function begin(port: number): Promise<{ ws: Session; episode: Episode }> {
  const ws = wsSession(`ws://127.0.0.1:${port}/ws`);
  const reset = await ws.send({ type: "reset", data: { scenario_id: "counter/c1" } });
  const meta = reset.data.observation?.metadata as { episode_id: string; session_key?: string };
  expect(reset.type).toBe("observation");
  expect(meta.session_key).toEqual(expect.any(String));
  expect((await ws.upgraded)["x-envstudio-episode"]).toBe(meta.episode_id);
  return { ws, episode: { id: meta.episode_id, key: meta.session_key ?? "" } };
}
const resume = (port: number, e: Episode) =>
  wsSession(`ws://127.0.0.1:${port}/ws?episode_id=${encodeURIComponent(e.id)}`, { "x-session-key": e.key });
const add = async (ws: Session, amount: number) =>
  (await ws.send({ type: "step", data: { tool_name: "add", arguments: { amount } } })).data;
const submit = async (ws: Session) =>
  (await ws.send({ type: "step", data: { tool_name: "submit", arguments: {} } })).data;
/** Waits until the server has seen every WebSocket connection go (its close handlers ran). */
async function socketsGone(port: number) {
  for (;;) {
    const ready = (await (await fetch(`http://127.0.0.1:${port}/ready`)).json()) as { websockets: number };
    if (ready.websockets === 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const journalRow = (id: string) => t.db.servedEpisode.findUniqueOrThrow({ where: { id } });

/** A resume the server refuses: the upgrade's HTTP status and error body. */
function refusedResume(
  port: number,
  id: string,
  headers: Record<string, string>,
): Promise<{ status: number; error: { code: string; message: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?episode_id=${encodeURIComponent(id)}`, { headers });
    ws.once("open", () => reject(new Error("the resume was accepted")));
    ws.once("error", () => undefined);
    ws.once("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ...(JSON.parse(text) as { error: { code: string; message: string } }),
        }),
      );
    });
  });
}

let b: Server;
beforeAll(async () => void (b = await replica()), 60_000);

describe("a WebSocket episode outlives its replica and its connection", () => {
  it("goes on at another replica after its own is killed with SIGKILL, the dead replica's calls replayed", async () => {
    const a = await childReplica();
    const { ws, episode } = await begin(a.port);
    expect((await add(ws, 2)).observation).toMatchObject({ content: { success: true, data: 2 } });
    expect((await add(ws, 5)).observation).toMatchObject({ content: { success: true, data: 7 } });
    const before = await journalRow(episode.id);
    expect(before.calls).toHaveLength(2);

    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    await ws.closed;

    const again = resume(b.port, episode);
    expect((await again.upgraded)["x-envstudio-episode"]).toBe(episode.id);
    // The check wants count == 1: only 2 + 5 - 6 gives it, so the reward proves the replay.
    const next = await add(again, -6);
    expect(next.observation).toMatchObject({
      content: { success: true, data: 1 },
      metadata: { step_count: 3 },
    });
    expect((await again.send({ type: "state" })).data).toMatchObject({
      episode_id: episode.id,
      step_count: 3,
      snapshot: { count: 1 },
    });
    const after = await journalRow(episode.id);
    expect(after.holder).not.toBe(before.holder);
    expect(after.calls).toHaveLength(3);
    expect(await submit(again)).toMatchObject({ done: true, reward: 1 });
    expect((await journalRow(episode.id)).endedAt).not.toBeNull();
    again.close();
  }, 120_000);

  it("a dropped connection leaves the episode open; a new one resumes it with its step budget", async () => {
    const c = await replica({ maxSteps: 3 });
    const { ws, episode } = await begin(c.port);
    await add(ws, 1);
    ws.close();
    await ws.closed;
    await socketsGone(c.port);
    // Still live here and open in the journal: nothing ended it.
    expect((await journalRow(episode.id)).endedAt).toBeNull();
    expect(c.sessions.size()).toBe(1);

    const again = resume(c.port, episode);
    expect((await again.send({ type: "state" })).data).toMatchObject({
      step_count: 1,
      snapshot: { count: 1 },
    });
    await add(again, 5);
    // The budget of 3 counts the first connection's call: the third call truncates the episode.
    expect(await add(again, -5)).toMatchObject({
      done: true,
      reward: 0,
      observation: { metadata: { step_count: 3, truncated: true } },
    });
    expect((await journalRow(episode.id)).endedAt).not.toBeNull();
    again.close();
  }, 60_000);

  it("a resume while the old connection is still open takes the episode from it", async () => {
    const { ws, episode } = await begin(b.port);
    await add(ws, 3);
    const again = resume(b.port, episode);
    expect(await ws.closed).toMatchObject({ code: WS_CLOSE_REPLACED });
    expect(await add(again, -2)).toMatchObject({ observation: { content: { data: 1 } } });
    expect(await submit(again)).toMatchObject({ done: true, reward: 1 });
    again.close();
  }, 60_000);

  it("a resume on another replica moves the episode: the old replica lets it go and closes its connection", async () => {
    const a = await replica();
    const { ws, episode } = await begin(a.port);
    await add(ws, 3);
    const again = resume(b.port, episode);
    expect(await add(again, -2)).toMatchObject({ observation: { content: { data: 1 } } });
    expect(a.sessions.live()).toBe(1);
    // a's reaper pass: the journal says b holds the episode now.
    expect(await a.sessions.releaseLost()).toBe(1);
    expect(await ws.closed).toMatchObject({ code: WS_CLOSE_REPLACED });
    expect(a.sessions.live()).toBe(0);
    expect((await journalRow(episode.id)).endedAt).toBeNull();
    expect(await submit(again)).toMatchObject({ done: true, reward: 1 });
    again.close();
  }, 60_000);

  it("an explicit close ends the episode: it cannot be resumed", async () => {
    const { ws, episode } = await begin(b.port);
    await add(ws, 1);
    await ws.send({ type: "close" }).catch(() => undefined);
    await ws.closed;
    expect((await journalRow(episode.id)).endedAt).not.toBeNull();
    const refused = await refusedResume(b.port, episode.id, { "x-session-key": episode.key });
    expect(refused).toMatchObject({ status: 410, error: { code: "GONE" } });
  }, 60_000);

  it("idle reaping ends an abandoned episode: it cannot be resumed afterwards", async () => {
    let clock = 0;
    const c = await replica({ now: () => clock, idleMs: 1000 });
    const { ws, episode } = await begin(c.port);
    await add(ws, 1);
    ws.close();
    await ws.closed;
    await socketsGone(c.port);
    clock = 10_000;
    expect(await c.sessions.reap()).toBe(1);
    expect((await journalRow(episode.id)).endedAt).not.toBeNull();
    expect(await refusedResume(b.port, episode.id, { "x-session-key": episode.key })).toMatchObject({
      status: 410,
    });
  }, 60_000);
});

describe("resumes that are refused", () => {
  it("another client's key moves nothing; an ended episode, an unknown one and a missing key are refused", async () => {
    const a = await replica();
    const { ws, episode } = await begin(a.port);
    await add(ws, 1);
    const holder = (await journalRow(episode.id)).holder;

    const thief = await refusedResume(b.port, episode.id, { "x-session-key": "not-the-key-of-this-episode" });
    expect(thief).toMatchObject({ status: 403, error: { code: "FORBIDDEN" } });
    expect(
      await refusedResume(a.port, episode.id, { "x-session-key": "not-the-key-of-this-episode" }),
    ).toMatchObject({ status: 403 });
    expect((await journalRow(episode.id)).holder).toBe(holder);
    expect(await add(ws, 0)).toMatchObject({ observation: { content: { data: 1 } } });

    const noKey = await refusedResume(b.port, episode.id, {});
    expect(noKey.status).toBe(400);
    expect(noKey.error.message).toMatch(/X-Session-Key/);

    const unknown = await refusedResume(b.port, "ws-no-such-episode", { "x-session-key": episode.key });
    expect(unknown).toMatchObject({ status: 404, error: { code: "NOT_FOUND" } });
    expect(unknown.error.message).toMatch(/journal/);

    expect(await submit(ws)).toMatchObject({ reward: 1 });
    expect(await refusedResume(b.port, episode.id, { "x-session-key": episode.key })).toMatchObject({
      status: 410,
      error: { code: "GONE" },
    });
    ws.close();
  }, 60_000);
});

describe("without the journal", () => {
  it("a dropped connection ends its episode, the reset gives no key, and nothing can be resumed", async () => {
    const solo = await startEnvServer(counterCatalog(), sandbox, loopbackOptions());
    track(solo);
    const ws = wsSession(`ws://127.0.0.1:${solo.port}/ws`);
    const reset = await ws.send({ type: "reset", data: {} });
    const meta = reset.data.observation?.metadata as Record<string, unknown>;
    expect(meta.session_key).toBeUndefined();
    await add(ws, 1);
    ws.close();
    await ws.closed;
    await socketsGone(solo.port);
    // Closing returns the episode's worker once the sandbox let it go.
    while (solo.sessions.live() > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(solo.sessions.size()).toBe(0);
    const refused = await refusedResume(solo.port, String(meta.episode_id), {
      "x-session-key": "x".repeat(24),
    });
    expect(refused.status).toBe(404);
    expect(refused.error.message).toMatch(/ENVSTUDIO_SERVE_JOURNAL/);
  }, 60_000);
});
