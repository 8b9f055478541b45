/**
 * Taking an episode over: a step or state request names an episode this replica does not hold;
 * the journal has it (same dataset version, the caller's session key, not ended), so it is moved
 * here and rebuilt: the scenario loaded with the episode's seed and its recorded calls replayed in
 * order. The client goes on as if nothing happened: same state, same step budget, same reward.
 */
import { type Result, err, ok } from "../core/result";
import type { SandboxRunner } from "../sandbox";
import type { Catalog } from "./catalog";
import { type EpisodeJournal, hashSessionKey } from "./episode-journal";
import { JOURNAL_DOWN } from "./reset-session";
import type { ServeError, SessionTable } from "./session-table";

/** Ok when the episode is now here or the journal has nothing to take over (the caller's lookup
 * then answers NOT_FOUND / FORBIDDEN as for any unknown session). */
export async function adoptSession(
  table: SessionTable,
  catalog: Catalog,
  sandbox: SandboxRunner,
  journal: EpisodeJournal,
  id: string,
  ownerKey: string,
): Promise<Result<void, ServeError>> {
  if (!ownerKey || table.has(id)) return ok(undefined);
  const entry = await journal.adopt(id, catalog.name, hashSessionKey(ownerKey)).catch((e: Error) => {
    console.error(`[serve] journal adopt ${id}:`, e.message);
    return undefined;
  });
  if (entry === undefined) return err({ code: "CAPACITY", message: JOURNAL_DOWN });
  const scenario = entry && catalog.scenarios.find((s) => s.id === entry.scenarioId);
  if (!entry || !scenario) return ok(undefined);
  const reserved = table.reserveWorker();
  if (!reserved.ok) return reserved;
  const loaded = await sandbox.load({
    source: scenario.source,
    className: scenario.className,
    initialState: scenario.initialState,
    seed: entry.seed,
  });
  if (!loaded.ok) {
    table.releaseWorker();
    return err({ code: "SANDBOX", message: `${loaded.error.code}: ${loaded.error.message}` });
  }
  const episode = loaded.value;
  for (const call of entry.calls) {
    const replayed = await episode.act(call.tool, call.arguments);
    if (!replayed.ok) {
      await episode.close().finally(() => table.releaseWorker());
      return err({
        code: "SANDBOX",
        message: `episode ${id} could not be rebuilt (${replayed.error.code}: ${replayed.error.message})`,
      });
    }
  }
  // The next step's diff starts here, not at the initial state the replay started from.
  if (entry.diffs) await episode.state();
  table.add({
    id,
    owner: { key: ownerKey },
    scenario,
    episode,
    diffs: entry.diffs,
    stepCount: entry.calls.length,
    submitted: false,
    lastSeen: table.now(),
    done: false,
    reward: null,
    finalSnapshot: null,
    recorded: entry.calls.length,
    journalChain: Promise.resolve(),
  });
  return ok(undefined);
}
