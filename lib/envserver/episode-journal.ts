/**
 * The episode journal: where a server replica records each episode's calls as they happen, so that
 * another replica can take an episode over after its replica died by replaying them (same seed,
 * same calls, so the same state, observations and reward). The Postgres journal is
 * server/pg-episode-journal.ts; without one (a single server) nothing is recorded.
 *
 * Rules that keep a replay exact:
 * - a call is recorded after it ran and before its answer leaves, appended only when the journal
 *   holds exactly the calls before it and the episode still belongs to this replica; a call that
 *   cannot be recorded ends the episode here instead of leaving a journal that replays wrong;
 * - an episode that ended (submit, budget, failed call, the client's close, idle reaping) is never
 *   taken over; one whose replica stopped or died is;
 * - taking over moves the episode to the new replica: the old one, if it still runs, can record no
 *   more calls, so two replicas never both advance one episode;
 * - an episode not written for the retention period (ended, or left by a replica that died and
 *   never taken over) is deleted (prune-episode-journal.ts): the journal does not grow forever.
 */
import { createHash } from "node:crypto";
import type { JsonObject } from "../sandbox";

export type JournalCall = { tool: string; arguments: JsonObject };

export type JournalEpisode = {
  id: string;
  /** sha256 of the owner's session key: knowing an episode id is not enough to take it over. */
  keyHash: string;
  /** The dataset version served (`name@vN`): a replica serving another one never adopts it. */
  catalog: string;
  scenarioId: string;
  seed: number;
  diffs: boolean;
};

export type JournalEntry = JournalEpisode & { calls: JournalCall[]; ended: boolean };

export type EpisodeJournal = {
  /** This replica's name in the journal (who holds an episode). */
  readonly holder: string;
  /** Starts (or restarts) the episode's record; false when the id is another owner's episode. */
  begin(episode: JournalEpisode): Promise<boolean>;
  /** Appends the call when `before` calls are recorded and this replica holds the episode. */
  record(id: string, before: number, call: JournalCall): Promise<boolean>;
  end(id: string): Promise<void>;
  /** The episode, moved to this replica, if it is in `catalog`, not ended, and the key matches. */
  adopt(id: string, catalog: string, keyHash: string): Promise<JournalEntry | null>;
  /** Which of `ids` another replica holds now (taken over from this one). */
  lost(ids: string[]): Promise<string[]>;
  /** What the journal knows of an episode (to say why it cannot be taken over), or null. */
  inspect(id: string): Promise<{ catalog: string; keyHash: string; ended: boolean } | null>;
  /** Deletes up to `limit` episodes not written since `before` (ended or abandoned); how many. */
  prune(before: Date, limit: number): Promise<number>;
};

export const hashSessionKey = (key: string) => createHash("sha256").update(key).digest("hex");
