// Worker pool of the sandbox host. One worker per lease (episode); a worker that ran one piece of
// untrusted code is only reused for the same code (its `key`), at most `maxEpisodes` times.
import { Worker } from "node:worker_threads";
import { failure } from "./failure.mjs";
import { SandboxWorker } from "./sandbox-worker.mjs";

export class Pool {
  constructor(config, shared) {
    this.config = config; // { poolSize, spares, maxEpisodes, graceMs, bootFailuresAllowed }
    this.shared = shared; // { workerUrl, wasmModule, pythonFiles, limits, getSnapshot }
    this.workers = new Set();
    this.leases = new Map();
    this.queue = [];
    this.nextLease = 1;
    this.bootFailures = 0;
    this.readyTimes = [];
  }

  get capacity() {
    return this.config.poolSize + this.config.spares;
  }

  start() {
    this.pump();
  }

  /** Resolves to a lease id, or rejects with {code, message, retryable}. */
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

  call(leaseId, req, timeoutMs) {
    const worker = this.leases.get(leaseId);
    if (!worker) return Promise.resolve(failure("INVALID_REQUEST", "unknown or released lease"));
    return worker.call(req, timeoutMs, this.config.graceMs);
  }

  release(leaseId, recycle) {
    const worker = this.leases.get(leaseId);
    if (!worker) return;
    this.leases.delete(leaseId);
    worker.episodes += 1;
    if (recycle || worker.dead || worker.fatal || worker.episodes >= this.config.maxEpisodes)
      this.retire(worker);
    else worker.state = "idle";
    this.pump();
  }

  retire(worker) {
    this.workers.delete(worker);
    worker.kill();
  }

  spawn() {
    const snapshot = this.shared.getSnapshot();
    const worker = new SandboxWorker(Worker, this.shared, snapshot);
    this.workers.add(worker);
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
    worker.onExit = () => {
      if (worker.state !== "leased") this.workers.delete(worker);
      this.pump();
    };
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
      request.resolve(id);
    }
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
      this.spawn();
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
    await Promise.all([...this.workers].map((w) => w.kill()));
    this.workers.clear();
  }
}
