/**
 * Replicas that can lose a member: an HTTP episode started on one `envstudio serve` replica goes on
 * at another after the first is killed (SIGKILL, a separate process) or stopped — same state, same
 * step budget, same reward — because every call is in the journal before its answer leaves.
 * Evidence is read on the host side: the journal's rows, and the reward a replay could only give
 * if the dead replica's calls were replayed. And the rules: a replica that lost its episode can no
 * longer advance it, another client's key takes nothing over, an ended episode is never revived,
 * and a reset with no reachable journal starts nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { useTestDatabase } from "@/tests/db";
import { type Server, useReplicas } from "../tests/replicas";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions } from "../tests/harness";
import { createPgEpisodeJournal } from "./pg-episode-journal";

const t = useTestDatabase();
const { sandbox, track, forget, replica, childReplica } = useReplicas(t);

type Reply = {
  status: number;
  body: {
    observation: { content: unknown; metadata: Record<string, unknown> };
    reward: number | null;
    done: boolean;
    error?: { message: string };
  };
};
const post = async (port: number, path: string, body: unknown): Promise<Reply> => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Reply["body"] };
};
const state = async (port: number, id: string, key: string) => {
  const res = await fetch(`http://127.0.0.1:${port}/state?episode_id=${id}&session_key=${key}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Resets on `port`; the episode's id and the owner's key, as an HTTP client keeps them. */
async function begin(port: number) {
  const reset = await post(port, "/reset", { scenario_id: "counter/c1" });
  expect(reset.status).toBe(200);
  const meta = reset.body.observation.metadata as { episode_id: string; session_key: string };
  return { id: meta.episode_id, key: meta.session_key };
}
const add = (port: number, e: { id: string; key: string }, amount: number) =>
  post(port, "/step", {
    action: { tool_name: "add", arguments: { amount }, metadata: {} },
    episode_id: e.id,
    session_key: e.key,
  });
const submit = (port: number, e: { id: string; key: string }) =>
  post(port, "/step", {
    action: { tool_name: "submit", arguments: {}, metadata: {} },
    episode_id: e.id,
    session_key: e.key,
  });
const journalRow = (id: string) => t.db.servedEpisode.findUniqueOrThrow({ where: { id } });

let b: Server;
beforeAll(async () => void (b = await replica()), 60_000);

describe("an episode outlives its replica", () => {
  it("goes on at another replica after its own is killed with SIGKILL, with the dead replica's calls replayed", async () => {
    const a = await childReplica();
    const episode = await begin(a.port);
    expect((await add(a.port, episode, 2)).body.observation.content).toEqual({ success: true, data: 2 });
    expect((await add(a.port, episode, 5)).body.observation.content).toEqual({ success: true, data: 7 });
    const before = await journalRow(episode.id);
    expect(before.calls).toEqual([
      { tool: "add", arguments: { amount: 2 } },
      { tool: "add", arguments: { amount: 5 } },
    ]);

    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));

    // The check wants count == 1: only 2 + 5 - 6 gives it, so the reward proves the replay.
    const next = await add(b.port, episode, -6);
    expect(next.status).toBe(200);
    expect(next.body.observation.content).toEqual({ success: true, data: 1 });
    expect(next.body.observation.metadata.step_count).toBe(3);
    expect(await state(b.port, episode.id, episode.key)).toMatchObject({
      status: 200,
      body: { step_count: 3, snapshot: { count: 1 } },
    });
    const after = await journalRow(episode.id);
    expect(after.holder).not.toBe(before.holder);
    expect(after.calls).toHaveLength(3);
    expect(await submit(b.port, episode)).toMatchObject({ status: 200, body: { done: true, reward: 1 } });
    expect((await journalRow(episode.id)).endedAt).not.toBeNull();
  }, 120_000);

  it("goes on after its replica stopped, with the step budget it had", async () => {
    const a = await replica();
    const episode = await begin(a.port);
    await add(a.port, episode, 1);
    await a.stop();
    forget(a);
    const reply = await add(b.port, episode, 0);
    expect(reply.body.observation.metadata.step_count).toBe(2);
    expect(await submit(b.port, episode)).toMatchObject({ body: { done: true, reward: 1 } });
  }, 60_000);
});

describe("the journal's rules", () => {
  it("a replica whose episode was taken over can no longer advance it; the new holder's journal is untouched", async () => {
    const a = await replica();
    const episode = await begin(a.port);
    await add(a.port, episode, 3);
    // The client reaches b (a balancer moved it, say) while a still runs.
    expect((await add(b.port, episode, -2)).body.observation.content).toEqual({ success: true, data: 1 });
    const stale = await add(a.port, episode, 100);
    expect(stale.body.done).toBe(true);
    expect(stale.body.observation.content).toMatchObject({ success: false });
    expect((await journalRow(episode.id)).calls).toEqual([
      { tool: "add", arguments: { amount: 3 } },
      { tool: "add", arguments: { amount: -2 } },
    ]);
    expect(await submit(b.port, episode)).toMatchObject({ body: { done: true, reward: 1 } });
  }, 60_000);

  it("another client's key takes nothing over and moves nothing", async () => {
    const a = await replica();
    const episode = await begin(a.port);
    await add(a.port, episode, 1);
    const holder = (await journalRow(episode.id)).holder;
    const thief = await add(b.port, { id: episode.id, key: "not-the-key-of-this-episode" }, 5);
    expect(thief.status).toBe(404);
    expect((await state(b.port, episode.id, "not-the-key-of-this-episode")).status).toBe(404);
    expect((await journalRow(episode.id)).holder).toBe(holder);
    // A reset naming the episode's id with another key does not overwrite its record.
    const hijack = await post(b.port, "/reset", {
      episode_id: episode.id,
      session_key: "not-the-key-of-this-episode",
    });
    expect(hijack.status).toBe(403);
    expect((await journalRow(episode.id)).calls).toHaveLength(1);
    expect((await add(a.port, episode, 0)).body.observation.content).toEqual({ success: true, data: 1 });
  }, 60_000);

  it("an ended episode is never revived elsewhere", async () => {
    const a = await replica();
    const episode = await begin(a.port);
    await add(a.port, episode, 1);
    expect(await submit(a.port, episode)).toMatchObject({ body: { reward: 1 } });
    await a.stop();
    forget(a);
    expect((await add(b.port, episode, 1)).status).toBe(404);
  }, 60_000);

  it("starts nothing when the journal cannot be reached", async () => {
    const nowhere = createDb("postgresql://nobody@127.0.0.1:1/none", 1);
    const down = await startEnvServer(
      counterCatalog(),
      sandbox,
      loopbackOptions({ journal: createPgEpisodeJournal(nowhere) }),
    );
    track(down);
    const reset = await post(down.port, "/reset", {});
    expect(reset.status).toBe(503);
    expect(reset.body.error?.message).toMatch(/journal/);
    expect(down.sessions.live()).toBe(0);
  }, 60_000);
});
