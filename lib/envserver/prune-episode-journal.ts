/**
 * Keeps the episode journal from growing forever: episodes not written for the retention period
 * are deleted, in bounded batches so that no statement holds many rows or runs long. That covers
 * ended episodes and abandoned ones (their replica died and no client came back). A live episode
 * is written on every call, and the retention is never below twice the idle limit, after which a
 * replica holding an episode closes it anyway.
 */
import type { EpisodeJournal } from "./episode-journal";

export const PRUNE_BATCH = 500;

/** The retention actually applied: what was asked, but never less than twice the idle limit. */
export const journalRetentionMs = (retentionMs: number, idleMs: number) => Math.max(retentionMs, 2 * idleMs);

/** Deletes every episode not written for `retentionMs`, batch by batch; how many went. */
export async function pruneEpisodeJournal(
  journal: EpisodeJournal,
  retentionMs: number,
  now: () => number = Date.now,
  batch = PRUNE_BATCH,
): Promise<number> {
  const before = new Date(now() - retentionMs);
  let total = 0;
  for (;;) {
    const n = await journal.prune(before, batch);
    total += n;
    if (n < batch) return total;
  }
}

/** Prunes now and then every `min(retention / 4, 1 h)` in the background. `first`: the first
 * pass's count (-1 if the journal could not be reached). */
export function startJournalPruning(
  journal: EpisodeJournal,
  retentionMs: number,
): { stop: () => void; first: Promise<number> } {
  const run = () =>
    pruneEpisodeJournal(journal, retentionMs).catch((e: Error) => {
      console.error("[serve] journal prune:", e.message);
      return -1;
    });
  const first = run();
  const timer = setInterval(() => void run(), Math.min(retentionMs / 4, 3_600_000));
  timer.unref();
  return { stop: () => clearInterval(timer), first };
}
