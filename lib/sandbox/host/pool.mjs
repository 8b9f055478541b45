// Worker pool of the sandbox host. One worker per lease (episode); a worker that ran one piece of
// untrusted code is only reused for the same code (its `key`), at most `maxEpisodes` times.
// Each worker owns a slot: the server-made channel its calls arrive on (channel.mjs). A slot is
// free again only once its previous thread has exited, so two threads never read one channel.
import { Worker } from "node:worker_threads";
import { SandboxWorker } from "./sandbox-worker.mjs";

const WATCH_INTERVAL_MS = 5;

export class Pool {
  constructor(config, shared) {
    this.config = config; // { poolSize, spares, maxEpisodes, graceMs, bootFailuresAllowed, slots }
    this.shared = shared; // { workerUrl, wasmModule, pythonFiles, limits, getSnapshot }
    this.workers = new Set();
    this.leases = new Map();
    this.queue = [];
    this.nextLease = 1;
    this.bootFailures = 0;
    this.readyTimes = [];
    this.freeSlots = Array.from({ length: config.slots }, (_, i) => i);
    this.slotWorkers = new Map();
    this.watchdog = null;
  }

  get capacity() {
    return this.config.poolSize + this.config.spares;
  }

  start() {
    this.pump();
  }

  /** Resolves to {lease, slot}, or rejects with {code, message, retryable}. */
  lease(key, waitMs) {
    return new Promise((resolve, reject) => {
      const request = { key, resolve, reject };
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

  retire(worker) {
    this.workers.delete(worker);
    worker.state = "retired";
    void worker.kill();
  }

  /** A slot is free once its thread has exited and no lease refers to it any more: calls the
   * server still sends on a dead lease's slot must find no reader rather than a new worker. */
  freeSlotOf(worker) {
    if (worker.slotFreed || !worker.threadExited || this.leases.get(worker.leaseId) === worker) return;
    worker.slotFreed = true;
    if (this.slotWorkers.get(worker.slot) === worker) this.slotWorkers.delete(worker.slot);
    this.freeSlots.push(worker.slot);
  }

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
      else if (!answered) this.shared.onLeaseLost(worker.leaseId);
      this.pump();
    };
    return true;
  }

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

  count(predicate) {
    let n = 0;
    for (const w of this.workers) if (predicate(w)) n += 1;
    return n;
  }

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
    while (this.queue.length > 0) {
      const request = this.queue[0];
      const worker = this.pickIdle(request.key);
      if (!worker) break;
      this.queue.shift();
      clearTimeout(request.timer);
      worker.state = "leased";
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
    while (wanted > 0) {
      if (this.workers.size >= this.capacity) {
        const victim = this.pickVictim();
        if (!victim) return;
        this.retire(victim);
      }
      if (!this.spawn()) return;
      wanted -= 1;
    }
  }

  stats() {
    const by = (state) => this.count((w) => w.state === state);
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
    clearInterval(this.watchdog);
    await Promise.all([...this.workers].map((w) => w.kill()));
    this.workers.clear();
  }
}
