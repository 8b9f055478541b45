/**
 * Worker sharing: episodes of the same source hosted side by side in a few workers instead of one
 * worker each. `envstudio serve` uses it: 32 sessions on 2 cores ran 32 Pyodide workers that each
 * polled their slot and evicted each other's wasm heaps from the caches (docs/benchmarks.md), while
 * a handful of workers, each stepping many sessions in turn, keeps the cores busy with real work.
 *
 * Each episode gets a virtual lease: its calls carry its episode id (the harness keeps one module
 * and instance per id, so class attributes and module globals never cross episodes) and go to
 * the worker's one physical lease, which runs them in arrival order. Sharing is only ever between episodes of the very
 * same source, as with parked workers: different untrusted code never shares a realm.
 *
 * When a worker dies or is recycled under one episode (a timeout, a crash), every other episode
 * on it sees SANDBOX_UNAVAILABLE and the recovering lease above (recovering-lease.ts) replays it on
 * a fresh virtual lease, so one misbehaving episode costs the others a replay, never their run.
 */
import { randomUUID } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { CallError, HarnessRequest, Lease } from "./backend";
import type { SandboxError } from "./sandbox.schema";

export type WorkerSharingOptions = {
  /** Workers a source may spread its episodes over (at least 1). */
  workersPerSource: number;
  /** Workers all sources together may hold (the pool size): past it, a source that has a worker
   * puts new episodes beside the others there instead of waiting for another. */
  maxWorkers: number;
  /** Episodes a worker hosts over its life before it takes no new ones and is recycled when empty. */
  maxEpisodesPerWorker: number;
  /** How long an unload (dropping a closed episode's instance) may take. */
  unloadTimeoutMs: number;
  /** Whether an episode leaves state in its worker that closing it must drop (`unload`). Check
   * runs keep nothing between calls, so their leases need no unload round trip. */
  statefulEpisodes: boolean;
  /** How long a worker whose last episode closed stays held for the next episode of its source
   * before it goes back to the backend. Giving a worker back and leasing it again are two round
   * trips through the Pyodide host's main thread, which a submit (one short check run on the
   * check set's worker) paid every time: the hold lets back-to-back episodes skip them. */
  idleHoldMs: number;
};

type AcquireLease = (key: string, waitMs: number) => Promise<Result<Lease, SandboxError>>;

type SharedWorker = {
  lease: Lease;
  /** Live episodes (virtual leases not yet released). */
  episodes: number;
  /** Episodes ever placed here: the worker's count towards recycling. */
  served: number;
  dead: boolean;
  released: boolean;
  /** Every call issued so far settled: what retiring the worker waits for. */
  tail: Promise<unknown>;
  /** Gives the worker back after `idleHoldMs` unless an episode comes first. */
  idleTimer: NodeJS.Timeout | null;
};

const gone = (why: string): CallError => ({
  code: "SANDBOX_UNAVAILABLE",
  message: `the shared sandbox worker is gone (${why})`,
  retryable: true,
  terminated: true,
});

export function createWorkerSharing(acquire: AcquireLease, options: WorkerSharingOptions) {
  const groups = new Map<string, SharedWorker[]>();
  /** Physical leases being acquired per key, so a burst of loads does not overshoot the spread. */
  const acquiring = new Map<string, Promise<Result<SharedWorker, SandboxError>>[]>();
  const limit = Math.max(1, options.workersPerSource);

  const held = () => [...groups.values()].reduce((n, g) => n + g.length, 0);
  const pendingTotal = () => [...acquiring.values()].reduce((n, p) => n + p.length, 0);
  const open = (w: SharedWorker) => !w.dead && !w.released && w.served < options.maxEpisodesPerWorker;

  async function place(key: string, waitMs: number): Promise<Result<SharedWorker, SandboxError>> {
    const group = (groups.get(key) ?? []).filter(open);
    const pending = acquiring.get(key) ?? [];
    const room = held() + pendingTotal() < options.maxWorkers;
    if (group.length + pending.length < limit && (room || group.length + pending.length === 0))
      return grow(key, waitMs);
    if (group.length === 0) {
      // Every worker of this source is still booting: wait for one, then place again.
      await Promise.race(pending);
      return place(key, waitMs);
    }
    // The least busy of the source's workers.
    const best = group.reduce((a, b) => (b.episodes < a.episodes ? b : a));
    return ok(best);
  }

  function grow(key: string, waitMs: number): Promise<Result<SharedWorker, SandboxError>> {
    const started = (async (): Promise<Result<SharedWorker, SandboxError>> => {
      const lease = await acquire(key, waitMs);
      if (!lease.ok) return lease;
      const worker: SharedWorker = {
        lease: lease.value,
        episodes: 0,
        served: 0,
        dead: false,
        released: false,
        tail: Promise.resolve(),
        idleTimer: null,
      };
      groups.set(key, [...(groups.get(key) ?? []).filter((w) => !w.released), worker]);
      return ok(worker);
    })();
    acquiring.set(key, [...(acquiring.get(key) ?? []), started]);
    void started.finally(() => {
      const rest = (acquiring.get(key) ?? []).filter((p) => p !== started);
      if (rest.length) acquiring.set(key, rest);
      else acquiring.delete(key);
    });
    return started;
  }

  /** Gives the physical lease back: recycled if it died or served its share, else parked warm. */
  async function retire(key: string, worker: SharedWorker, recycle: boolean): Promise<void> {
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    worker.idleTimer = null;
    if (worker.released) return;
    worker.released = true;
    groups.set(
      key,
      (groups.get(key) ?? []).filter((w) => w !== worker),
    );
    const spent = worker.served >= options.maxEpisodesPerWorker;
    await worker.tail.catch(() => undefined);
    await worker.lease.release(recycle || worker.dead || spent, Math.max(1, worker.served));
  }

  function virtualLease(key: string, worker: SharedWorker): Lease {
    const episode = randomUUID();
    let released = false;
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    worker.idleTimer = null;
    worker.episodes += 1;
    worker.served += 1;

    function call(request: HarnessRequest, timeoutMs: number): Promise<Result<unknown, CallError>> {
      const run = async (): Promise<Result<unknown, CallError>> => {
        if (worker.dead || worker.released)
          return err(gone("another episode on it hit a limit or it crashed"));
        const result = await worker.lease.call({ ...request, episode }, timeoutMs);
        if (!result.ok && result.error.terminated) {
          // A limit hit or crash took the worker down: it goes back at once, and the other
          // episodes on it are moved by their recovering leases at their next call.
          worker.dead = true;
          void retire(key, worker, true);
        }
        return result;
      };
      // Sent at once, even while the worker is on another episode's call (both backends take
      // pipelined calls): the worker never waits for the server between two calls.
      const next = run();
      worker.tail = Promise.all([worker.tail, next]).catch(() => undefined);
      return next;
    }

    return {
      call,
      async release(recycle) {
        if (released) return;
        released = true;
        worker.episodes -= 1;
        if (recycle) {
          // This episode's worker is in an unknown state: nobody else may use it either.
          worker.dead = true;
          await retire(key, worker, true);
          return;
        }
        // Sent, not awaited: the worker takes calls in arrival order, so the instance is gone
        // before any later call reaches it, and the caller's next reset does not wait for it.
        if (!worker.dead && options.statefulEpisodes) void call({ op: "unload" }, options.unloadTimeoutMs);
        if (worker.episodes > 0) return;
        // An empty worker goes back to the backend, which parks it warm for this source: at once
        // when it is dead or spent, else after the idle hold if no episode of its source came.
        if (worker.dead || worker.served >= options.maxEpisodesPerWorker || options.idleHoldMs <= 0) {
          await retire(key, worker, worker.dead);
          return;
        }
        worker.idleTimer = setTimeout(() => {
          worker.idleTimer = null;
          if (worker.episodes === 0) void retire(key, worker, worker.dead);
        }, options.idleHoldMs);
        worker.idleTimer.unref();
      },
    };
  }

  return {
    async lease(key: string, waitMs: number): Promise<Result<Lease, SandboxError>> {
      const worker = await place(key, waitMs);
      return worker.ok ? ok(virtualLease(key, worker.value)) : worker;
    },
    /** Workers currently held per source (tests and stats). */
    workers: (key: string) => (groups.get(key) ?? []).filter((w) => !w.released).length,
  };
}
export type WorkerSharing = ReturnType<typeof createWorkerSharing>;
