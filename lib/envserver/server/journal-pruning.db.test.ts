/**
 * The episode journal does not grow forever: episodes not written for the retention period — ended
 * ones, and ones left open by a replica that died — are deleted in bounded batches, by a replica
 * when it starts (and then in the background); live and recent ones stay, and a live episode goes
 * on after a pruning pass. Read back from Postgres.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "@/lib/sandbox";
import { useTestDatabase } from "@/tests/db";
import { journalRetentionMs, pruneEpisodeJournal } from "../prune-episode-journal";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions } from "../tests/harness";
import { createPgEpisodeJournal } from "./pg-episode-journal";

const t = useTestDatabase();
const sandbox = createSandboxRunner({ poolSize: 2 });
type Server = Awaited<ReturnType<typeof startEnvServer>>;
const servers: Server[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop();
  await sandbox.close();
});

const HOUR = 3_600_000;

/** A journal row last written `ageMs` ago; ended then when `ended`. */
async function row(ageMs: number, ended: boolean): Promise<string> {
  const id = `prune-${randomUUID()}`;
  const at = new Date(Date.now() - ageMs);
  await t.db.servedEpisode.create({
    data: {
      id,
      keyHash: "k",
      catalog: "counters@v1",
      scenarioId: "counter/c1",
      seed: 1,
      diffs: false,
      holder: "gone:1:x",
      calls: [],
      endedAt: ended ? at : null,
      createdAt: at,
      updatedAt: at,
    },
  });
  return id;
}
const remaining = async (ids: string[]) =>
  (await t.db.servedEpisode.findMany({ where: { id: { in: ids } }, select: { id: true } }))
    .map((r) => r.id)
    .sort();

describe("journal pruning", () => {
  it("deletes ended and abandoned episodes older than the retention, batch by batch, and keeps recent ones", async () => {
    const old = [
      ...(await Promise.all([1, 2, 3, 4, 5].map(() => row(30 * HOUR, true)))),
      await row(48 * HOUR, false),
      await row(25 * HOUR, false),
    ];
    const recent = [await row(HOUR, true), await row(23 * HOUR, false), await row(0, false)];
    const journal = createPgEpisodeJournal(t.db);
    // Batches of 2: seven old rows take four statements; every one of them goes.
    const deleted = await pruneEpisodeJournal(journal, 24 * HOUR, Date.now, 2);
    expect(deleted).toBe(old.length);
    expect(await remaining([...old, ...recent])).toEqual([...recent].sort());
    expect(await journal.prune(new Date(Date.now() - 24 * HOUR), 2)).toBe(0);
  });

  it("never keeps less than twice the idle limit, after which a holder closes an episode anyway", () => {
    expect(journalRetentionMs(60_000, 300_000)).toBe(600_000);
    expect(journalRetentionMs(24 * HOUR, 300_000)).toBe(24 * HOUR);
  });

  it("runs when a replica starts; the replica's live episode goes on", async () => {
    const stale = [await row(2 * HOUR, true), await row(3 * HOUR, false)];
    const fresh = await row(10 * 60_000, true);
    const first = await startEnvServer(
      counterCatalog(),
      sandbox,
      loopbackOptions({ journal: createPgEpisodeJournal(t.db), journalRetentionMs: HOUR, idleMs: 60_000 }),
    );
    servers.push(first);
    await first.prunedOnStart;
    const reset = await fetch(`http://127.0.0.1:${first.port}/reset`, { method: "POST", body: "{}" });
    const meta = (
      (await reset.json()) as { observation: { metadata: { episode_id: string; session_key: string } } }
    ).observation.metadata;

    // Another replica starting prunes again: the live episode, just written, is not touched.
    const second = await startEnvServer(
      counterCatalog(),
      sandbox,
      loopbackOptions({ journal: createPgEpisodeJournal(t.db), journalRetentionMs: HOUR, idleMs: 60_000 }),
    );
    servers.push(second);
    await second.prunedOnStart;
    expect(await remaining([...stale, fresh, meta.episode_id])).toEqual([fresh, meta.episode_id].sort());
    const step = await fetch(`http://127.0.0.1:${first.port}/step`, {
      method: "POST",
      body: JSON.stringify({
        action: { tool_name: "add", arguments: { amount: 1 } },
        episode_id: meta.episode_id,
        session_key: meta.session_key,
      }),
    });
    expect(await step.json()).toMatchObject({ observation: { content: { data: 1 } }, done: false });
  }, 60_000);
});
