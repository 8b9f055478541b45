/**
 * The live sessions of the environment server and the sandbox workers they hold: who may act on a
 * session, how one ends (its worker goes back), and the reaper for idle ones.
 *
 * Every session belongs to the client that created it (its `owner` key); knowing a session's id is
 * not enough to step, read or close it. Workers are counted from the moment a load is reserved until
 * the episode's worker is returned, so concurrent resets and closes still in flight are counted.
 */
import { type Result, err, ok } from "../core/result";
import type { Episode } from "../sandbox";
import type { ServedScenario } from "./catalog";
import type { EpisodeJournal } from "./episode-journal";

export type ServeError = {
  /** GONE: the episode ended and cannot be resumed. */
  code: "NOT_FOUND" | "CAPACITY" | "FORBIDDEN" | "SANDBOX" | "INVALID" | "GONE";
  message: string;
};

/** Who holds a session; `onEvicted` hears when the server closes it (idle reaping), `onReplaced`
 * when another connection of the same owner resumed it (ws-handler.ts). */
export type Owner = { key: string; onEvicted?: (reason: string) => void; onReplaced?: () => void };

export type Session = {
  id: string;
  owner: Owner;
  scenario: ServedScenario;
  episode: Episode | null;
  /** Steps answer with the state diff (the reset asked for it). */
  diffs: boolean;
  /** Steps reserved (a call counts before it is queued, submit included): never above maxSteps. */
  stepCount: number;
  /** A submit was reserved: nothing after it runs (the episode ends with its reward). */
  submitted: boolean;
  lastSeen: number;
  done: boolean;
  reward: number | null;
  /** The environment's state when the episode ended (the worker is gone by then). */
  finalSnapshot: Record<string, unknown> | null;
  snapshotError?: string;
  /** Calls recorded in the episode journal, and the recording in progress (kept in call order). */
  recorded: number;
  journalChain: Promise<unknown>;
};

export type SessionOptions = {
  maxSessions: number;
  /** Live sessions the sandbox can host (start-server.ts sandboxSessionCeiling): its pool size, or
   * the session limit when sessions share workers. */
  sandboxWorkers: number;
  maxSteps: number;
  idleMs: number;
  now?: () => number;
  /** Records episodes for takeover by another replica (episode-journal.ts); none: not recorded. */
  journal?: EpisodeJournal;
};

export type SessionTable = ReturnType<typeof createSessionTable>;

export function createSessionTable(opts: SessionOptions) {
  const sessions = new Map<string, Session>();
  const now = opts.now ?? Date.now;
  const capacity = Math.min(opts.maxSessions, opts.sandboxWorkers);
  let held = 0;

  /**
   * Ends the session's episode: keeps its final state, returns its worker. `final: false` (the
   * server stopping) leaves it open in the journal, for another replica to take over.
   */
  async function end(session: Session, final = true) {
    const episode = session.episode;
    if (!episode) return;
    session.episode = null;
    session.done = true;
    if (final && opts.journal) {
      const journal = opts.journal;
      await session.journalChain.then(() =>
        journal
          .end(session.id)
          .catch((e: Error) => console.error(`[serve] journal end ${session.id}:`, e.message)),
      );
    }
    try {
      const snapshot = await episode.state();
      if (snapshot.ok) session.finalSnapshot = snapshot.value;
      else session.snapshotError = `${snapshot.error.code}: ${snapshot.error.message}`;
    } finally {
      // Whatever happened above, the worker goes back and stops counting against capacity.
      await episode.close().finally(() => (held -= 1));
    }
  }

  /** The session, if `ownerKey` may act on it (undefined key: the server itself). */
  function owned(id: string, ownerKey: string | undefined): Result<Session, ServeError> {
    const session = sessions.get(id);
    if (!session)
      return err({
        code: "NOT_FOUND",
        message: `no session ${id} (reset first; idle sessions are closed after ${opts.idleMs} ms)`,
      });
    // An empty key is no key: it never matches, whatever a reset was given.
    if (ownerKey !== undefined && (ownerKey === "" || session.owner.key !== ownerKey))
      return err({
        code: "FORBIDDEN",
        message: `session ${id} belongs to another client (HTTP: send the session_key its reset returned)`,
      });
    return ok(session);
  }

  /** Holds a worker for a load about to start, or says why none is free. */
  function reserveWorker(): Result<void, ServeError> {
    if (held >= capacity) {
      const which =
        opts.sandboxWorkers < opts.maxSessions
          ? `its ${capacity} sandbox workers (SANDBOX_POOL_SIZE)`
          : `its limit of ${capacity} sessions (ENVSTUDIO_SERVE_MAX_SESSIONS)`;
      return err({
        code: "CAPACITY",
        message: `the server is at ${which}: close a session or try again later`,
      });
    }
    held += 1;
    return ok(undefined);
  }

  /** Closes a session (its owner, or the server when `ownerKey` is undefined). */
  async function close(id: string, ownerKey?: string, final = true): Promise<Result<void, ServeError>> {
    const found = owned(id, ownerKey);
    if (!found.ok) return found;
    sessions.delete(id);
    await end(found.value, final);
    return ok(undefined);
  }

  /** Closes sessions idle for longer than idleMs and tells their owners; returns how many. */
  async function reap(): Promise<number> {
    const stale = [...sessions.values()].filter((s) => now() - s.lastSeen > opts.idleMs);
    await Promise.all(
      stale.map(async (s) => {
        await close(s.id);
        s.owner.onEvicted?.(
          `session ${s.id} was idle for more than ${opts.idleMs} ms (ENVSTUDIO_SERVE_IDLE_MS) and was closed`,
        );
      }),
    );
    return stale.length;
  }

  /**
   * Lets go of the episodes another replica took over (a balancer sent their client there): their
   * workers and capacity come back now rather than at idle reaping. Open in the journal still, for
   * their new holder. Returns how many.
   */
  async function releaseLost(): Promise<number> {
    const journal = opts.journal;
    const live = [...sessions.values()].filter((s) => s.episode).map((s) => s.id);
    if (!journal || live.length === 0) return 0;
    const lost = await journal.lost(live).catch((e: Error) => {
      console.error("[serve] journal lost:", e.message);
      return [];
    });
    await Promise.all(
      lost.map(async (id) => {
        const session = sessions.get(id);
        if (!session?.episode) return;
        sessions.delete(id);
        await end(session, false);
        session.owner.onReplaced?.();
      }),
    );
    return lost.length;
  }

  return {
    opts,
    now,
    releaseLost,
    capacity,
    has: (id: string) => sessions.has(id),
    add: (session: Session) => void sessions.set(session.id, session),
    owned,
    end,
    reserveWorker,
    releaseWorker: () => void (held -= 1),
    close,
    reap,
    size: () => sessions.size,
    live: () => held,
    /** The server stops: every session closes here, and stays open in the journal. */
    closeAll: () => Promise.all([...sessions.keys()].map((id) => close(id, undefined, false))),
  };
}
