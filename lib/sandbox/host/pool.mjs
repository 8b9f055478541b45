// @ts-check
// Worker pool of the sandbox host. One worker per lease (episode); a worker that ran one piece of
// untrusted code is only reused for the same code (its `key`), at most `maxEpisodes` times.
// Each worker owns a slot: the server-made channel its calls arrive on (channel.mjs). A slot is
// free again only once its previous thread has exited, so two threads never read one channel.
import { Worker } from "node:worker_threads";
import { SandboxWorker } from "./sandbox-worker.mjs";

/** Workers beyond the pool size that only check runs may take (see Pool.capacity). */
const CHECK_RESERVE = 1;
const WATCH_INTERVAL_MS = 5;

/** The pool part of the host's config (built by lib/sandbox/host-process.ts).
 * @typedef {object} PoolConfig
 * @property {number} poolSize
 * @property {number} spares fresh workers kept booted ahead of demand
 * @property {number} maxEpisodes leases (check runs count fractionally) before a worker is retired
 * @property {number} graceMs between a call's deadline and the thread's termination
 * @property {number} bootFailuresAllowed consecutive boot failures before waiting leases fail
 * @property {number} slots slot sockets, fds FIRST_SLOT_FD .. FIRST_SLOT_FD + slots - 1
 */

/** What sandbox-host.mjs gives the pool, and the pool its workers.
 * @typedef {object} HostShared
 * @property {URL} workerUrl worker.mjs
 * @property {string} pyodideUrl
 * @property {WebAssembly.Module} wasmModule
 * @property {Record<string, string>} pythonFiles
 * @property {import("./harden.mjs").HarnessLimits} limits
 * @property {() => Uint8Array | null} getSnapshot
 * @property {(info: { usedSnapshot: boolean }, snapshotGiven: boolean) => void} onBoot
 * @property {(lease: number) => void} onLeaseLost
 * @property {Int32Array} spinners
 * @property {number} maxSpinners
 */

/** An error the host reports to the server (HostErrorSchema in lib/sandbox/sandbox.schema.ts).
 * @typedef {{ code: string, message: string, retryable: boolean }} HostError
 */

/** A lease waiting for a worker.
 * @typedef {object} LeaseRequest
 * @property {string | null} key
 * @property {boolean} checks a check run (runChecks): may use the reserved check worker
 * @property {(granted: { lease: number, slot: number }) => void} resolve
 * @property {(error: HostError) => void} reject
 * @property {NodeJS.Timeout} [timer]
 */

export class Pool {
  /**
   * @param {PoolConfig} config
   * @param {HostShared} shared
   */
  constructor(config, shared) {
    this.config = config;
    this.shared = shared;
    /** @type {Set<SandboxWorker>} */
    this.workers = new Set();
    /** @type {Map<number, SandboxWorker>} lease id -> its worker */
    this.leases = new Map();
    /** @type {LeaseRequest[]} */
    this.queue = [];
    this.nextLease = 1;
    this.bootFailures = 0;
    /** @type {number[]} */
    this.readyTimes = [];
    this.freeSlots = Array.from({ length: config.slots }, (_, i) => i);
    /** @type {Map<number, SandboxWorker>} slot -> the worker that last took it */
    this.slotWorkers = new Map();
    /** @type {NodeJS.Timeout | null} */
    this.watchdog = null;
  }

  /** Workers for episodes; one more is kept for check runs, which an episode may need while it
   * holds its own worker (its checks never run in the environment's interpreter): with every
   * worker held by an episode waiting on its checks, they would otherwise wait for each other. */
  get capacity() {
    return this.config.poolSize + this.config.spares;
  }

  get totalCapacity() {
    return this.capacity + CHECK_RESERVE;
  }

  start() {
    this.pump();
  }

  /** Resolves to {lease, slot}, or rejects with {code, message, retryable}.
   * @param {string | null} key the code the lease will run (null: none yet)
   * @param {number} waitMs
   * @param {boolean} [checks] a check run (may use the reserved check worker)
   * @returns {Promise<{ lease: number, slot: number }>}
   */
  lease(key, waitMs, checks = false) {
    return new Promise((resolve, reject) => {
      /** @type {LeaseRequest} */
      const request = { key, resolve, reject, checks };
      request.timer = setTimeout(() => {
        this.queue = this.queue.filter((r) => r !== request);
        reject({
          code: "SANDBOX_UNAVAILABLE",
          message: `no sandbox worker became free within ${waitMs} ms`,
          retryable: true,
        });
      }, waitMs);
      this.queue.push(request);
      this.pump();
    });
  }

  /** Deadlines are only watched while some lease exists: an idle host does not wake up. */
  updateWatchdog() {
    if (this.leases.size > 0 && !this.watchdog) {
      this.watchdog = setInterval(() => {
        const now = Date.now();
        for (const worker of this.leases.values()) worker.watch(now, this.config.graceMs);
      }, WATCH_INTERVAL_MS);
    } else if (this.leases.size === 0 && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = null;
    }
  }

  /**
   * @param {number} leaseId
   * @param {boolean} recycle retire the worker rather than keep it for its key
   * @param {number} [weight] how much of an episode the lease counted for
   */
  release(leaseId, recycle, weight = 1) {
    const worker = this.leases.get(leaseId);
    if (!worker) return;
    this.leases.delete(leaseId);
    worker.episodes += weight;
    // Fractional weights (check runs) add up with rounding error: compare with a tolerance.
    if (recycle || worker.dead || worker.fatal || worker.episodes >= this.config.maxEpisodes - 1e-9)
      this.retire(worker);
    else worker.state = "idle";
    this.updateWatchdog();
    this.freeSlotOf(worker);
    this.pump();
  }

  /** @param {SandboxWorker} worker */
  retire(worker) {
    this.workers.delete(worker);
    worker.state = "retired";
    void worker.kill();
  }

  /** A slot is free once its thread has exited and no lease refers to it any more: calls the
   * server still sends on a dead lease's slot must find no reader rather than a new worker.
   * @param {SandboxWorker} worker
   */
  freeSlotOf(worker) {
    // (leaseId is undefined for a worker never leased: the lookup then finds nothing, as it should.)
    if (
      worker.slotFreed ||
      !worker.threadExited ||
      this.leases.get(/** @type {number} */ (worker.leaseId)) === worker
    )
      return;
    worker.slotFreed = true;
    if (this.slotWorkers.get(worker.slot) === worker) this.slotWorkers.delete(worker.slot);
    this.freeSlots.push(worker.slot);
  }

  /** @returns {boolean} false when no slot is free */
  spawn() {
    const slot = this.freeSlots.pop();
    if (slot === undefined) return false; // a retired thread still holds it: pump() on its exit
    const snapshot = this.shared.getSnapshot();
    const worker = new SandboxWorker(Worker, this.shared, snapshot, slot);
    this.workers.add(worker);
    this.slotWorkers.set(slot, worker);
    worker.onThreadGone = () => {
      // Killed mid-spin: its `finally` never ran, so give its spin budget back here.
      if (Atomics.load(worker.spinning, 0) === 1) Atomics.sub(this.shared.spinners, 0, 1);
      this.freeSlotOf(worker);
      this.pump();
    };
    worker.ready.then(
      (info) => {
        this.bootFailures = 0;
        this.readyTimes.push(info.bootMs);
        if (this.readyTimes.length > 50) this.readyTimes.shift();
        this.shared.onBoot(info, Boolean(snapshot));
        this.pump();
      },
      (error) => {
        this.workers.delete(worker);
        this.bootFailures += 1;
        // A snapshot that crashes the worker (rather than throwing) must not be offered again.
        if (snapshot) this.shared.onBoot({ usedSnapshot: false }, true);
        process.stderr.write(`sandbox-host: worker failed to boot: ${error}\n`);
        if (this.bootFailures >= this.config.bootFailuresAllowed) this.failQueue(String(error));
        else this.pump();
      },
    );
    worker.onExit = (answered) => {
      if (worker.state !== "leased") this.workers.delete(worker);
      // Died between calls: the server must learn it now, not by waiting on a silent channel.
      else if (!answered) this.shared.onLeaseLost(/** @type {number} */ (worker.leaseId)); // set when leased
      this.pump();
    };
    return true;
  }

  /** @param {string} reason */
  failQueue(reason) {
    for (const request of this.queue.splice(0)) {
      clearTimeout(request.timer);
      request.reject({
        code: "SANDBOX_UNAVAILABLE",
        message: `sandbox workers cannot boot: ${reason.slice(0, 300)}`,
        retryable: true,
      });
    }
  }

  /**
   * @param {(worker: SandboxWorker) => boolean} predicate
   * @returns {number}
   */
  count(predicate) {
    let n = 0;
    for (const w of this.workers) if (predicate(w)) n += 1;
    return n;
  }

  /**
   * @param {string | null} key
   * @returns {SandboxWorker | undefined} an idle worker that ran `key` already, else a fresh one
   */
  pickIdle(key) {
    let fresh;
    for (const w of this.workers) {
      if (w.state !== "idle" || w.dead) continue;
      if (key !== null && w.key === key) return w;
      if (w.key === null && !fresh) fresh = w;
    }
    return fresh;
  }

  /** Oldest idle worker that already ran some code: the first to make room for fresh ones. */
  pickVictim() {
    for (const w of this.workers) if (w.state === "idle" && w.key !== null) return w;
    return undefined;
  }

  pump() {
    // In order, except that a check run does not wait behind episodes that wait for a worker.
    let episodesWait = false;
    for (const request of [...this.queue]) {
      if (!request.checks) {
        episodesWait ||= this.count((w) => w.state === "leased" && !w.leasedForChecks) >= this.capacity;
        if (episodesWait) continue;
      }
      const worker = this.pickIdle(request.key);
      if (!worker) {
        if (!request.checks) episodesWait = true; // later episodes keep their place behind it
        continue;
      }
      this.queue = this.queue.filter((r) => r !== request);
      clearTimeout(request.timer);
      worker.state = "leased";
      worker.leasedForChecks = request.checks;
      if (request.key !== null) worker.key = request.key;
      const id = this.nextLease++;
      this.leases.set(id, worker);
      worker.beginLease(id);
      request.resolve({ lease: id, slot: worker.slot });
    }
    this.updateWatchdog();
    this.grow();
  }

  /** Boot workers for waiting requests plus `spares` fresh ones, within capacity. */
  grow() {
    if (this.bootFailures >= this.config.bootFailuresAllowed && this.queue.length === 0) return;
    const booting = this.count((w) => w.state === "booting");
    const freshIdle = this.count((w) => w.state === "idle" && w.key === null);
    let wanted = this.queue.length + this.config.spares - booting - freshIdle;
    const limit = this.queue.some((r) => r.checks) ? this.totalCapacity : this.capacity;
    while (wanted > 0) {
      if (this.workers.size >= limit) {
        const victim = this.pickVictim();
        if (!victim) return;
        this.retire(victim);
      }
      if (!this.spawn()) return;
      wanted -= 1;
    }
  }

  stats() {
    const by = (/** @type {import("./sandbox-worker.mjs").WorkerState} */ state) =>
      this.count((w) => w.state === state);
    return {
      workers: this.workers.size,
      idle: by("idle"),
      leased: by("leased"),
      booting: by("booting"),
      queued: this.queue.length,
      readyMs: [...this.readyTimes],
    };
  }

  async close() {
    this.failQueue("the sandbox host is shutting down");
    clearInterval(/** @type {NodeJS.Timeout | undefined} */ (this.watchdog)); // null is ignored too
    await Promise.all([...this.workers].map((w) => w.kill()));
    this.workers.clear();
  }
}
