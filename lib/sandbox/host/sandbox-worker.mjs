// @ts-check
// Host-side handle of one worker thread: boot, lease hand-over, and the deadline watchdog
// (interrupt, then terminate). Calls themselves never pass through here: the worker reads them
// from its slot channel and answers on it (channel.mjs); the host only writes on that channel
// when it takes a call over (a kill or a crash), which the shared call state makes exclusive.
import { BUSY, FIRST_SLOT_FD, KILLED, REPLYING, failureLine, writeLine } from "./slot-protocol.mjs";

const SIGINT = 2;
const BOOT_TIMEOUT_MS = 60_000;

/** @import { LeaseMessage, ReadyMessage, WorkerData, WorkerMessage } from "./slot-protocol.mjs" */
/** @import { HostShared } from "./pool.mjs" */

/** booting -> idle -> leased -> idle ... -> retired (the pool's bookkeeping; `dead` is separate).
 * @typedef {"booting" | "idle" | "leased" | "retired"} WorkerState
 */

export class SandboxWorker {
  /**
   * @param {typeof import("node:worker_threads").Worker} Worker
   * @param {HostShared} shared
   * @param {Uint8Array | null} snapshot
   * @param {number} slot
   */
  constructor(Worker, shared, snapshot, slot) {
    /** @type {WorkerState} */
    this.state = "booting";
    /** Leased for a check run (the pool's reserved check worker may serve it). */
    this.leasedForChecks = false;
    this.slot = slot;
    /** @type {string | null} the code this worker ran, once leased for it */
    this.key = null;
    this.episodes = 0;
    this.dead = false;
    this.fatal = false;
    /** @type {(answered: boolean | undefined) => void} the worker died; answered: its call was */
    this.onExit = () => {};
    /** @type {() => void} */
    this.onThreadGone = () => {};
    // Set by the pool once the slot is free for another worker (a falsy start, as before).
    this.slotFreed = false;
    this.spinning = new Int32Array(new SharedArrayBuffer(4));
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    this.callState = new Int32Array(new SharedArrayBuffer(4));
    this.callDeadline = new Float64Array(new SharedArrayBuffer(8));
    this.worker = new Worker(shared.workerUrl, {
      workerData: /** @satisfies {WorkerData} */ ({
        wasmModule: shared.wasmModule,
        snapshot,
        pyodideUrl: shared.pyodideUrl,
        interruptBuffer: this.flag,
        pythonFiles: shared.pythonFiles,
        limits: shared.limits,
        channelFd: FIRST_SLOT_FD + slot,
        callState: this.callState,
        callDeadline: this.callDeadline,
        spinners: shared.spinners,
        maxSpinners: shared.maxSpinners,
        spinning: this.spinning,
      }),
      env: {},
      stdout: true,
      stderr: true,
      // Backstop for the JS heap only: wasm memory is an ArrayBuffer and is capped separately.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    });
    this.worker.stdout.resume(); // drain and drop: nothing a worker prints reaches the protocol
    this.worker.stderr.resume();
    /** @type {Promise<ReadyMessage>} rejects with a reason string */
    this.ready = new Promise((resolve, reject) => {
      this.bootResolve = resolve;
      this.bootReject = reject;
    });
    // A boot that hangs would hold a pool slot forever.
    this.bootTimer = setTimeout(() => {
      if (this.state !== "booting") return;
      this.dead = true;
      this.bootReject(`worker did not boot within ${BOOT_TIMEOUT_MS} ms`);
      void this.worker.terminate();
    }, BOOT_TIMEOUT_MS);
    this.worker.on("message", (m) => this.onMessage(m));
    this.worker.on("error", (e) => this.onGone(e));
    this.worker.on("exit", () => {
      this.onGone(null);
      this.threadExited = true;
      this.onThreadGone();
    });
  }

  /** @param {WorkerMessage} message */
  onMessage(message) {
    if (message.ready) {
      clearTimeout(this.bootTimer);
      this.state = "idle";
      this.bootResolve(message);
    } else if (message.bootError) {
      this.dead = true;
      this.bootReject(message.bootError);
      void this.worker.terminate();
    } else if (message.fatal) {
      this.fatal = true; // it already answered with the failure; retired on release
    }
  }

  /** Hands the worker to a lease: it starts reading that lease's calls from its channel.
   * @param {number} leaseId
   */
  beginLease(leaseId) {
    this.leaseId = leaseId;
    this.worker.postMessage(/** @satisfies {LeaseMessage} */ ({ lease: leaseId }));
  }

  /** Answers the running call on the worker's behalf, if the host can still claim it.
   * @param {string} code
   * @param {string} message
   * @param {boolean} [retryable]
   * @returns {boolean} whether the call was still open (and is answered now)
   */
  takeOver(code, message, retryable = false) {
    const line = failureLine(code, message, true, retryable);
    const was = Atomics.compareExchange(this.callState, 0, BUSY, KILLED);
    if (was === BUSY) this.answer(line);
    // Died while writing its reply: end the partial line so the next line parses on its own.
    else if (was === REPLYING && Atomics.compareExchange(this.callState, 0, REPLYING, KILLED) === REPLYING)
      this.answer("\n" + line);
    return was === BUSY || was === REPLYING;
  }

  /** @param {string} text */
  answer(text) {
    try {
      writeLine(FIRST_SLOT_FD + this.slot, text);
    } catch {
      // the server closed the channel: nobody is waiting for this answer
    }
  }

  /** @param {NodeJS.ErrnoException | null} error the thread's uncaught error, or null on exit */
  onGone(error) {
    if (this.dead && this.gone) return;
    this.gone = true;
    this.dead = true;
    clearTimeout(this.bootTimer);
    if (this.state === "booting") this.bootReject(error ? String(error) : "worker exited during boot");
    const oom = error && error.code === "ERR_WORKER_OUT_OF_MEMORY";
    const answered = oom
      ? this.takeOver("MEMORY", "the worker ran out of JavaScript heap")
      : this.shutDown
        ? this.takeOver("SANDBOX_UNAVAILABLE", "the worker was shut down", true)
        : this.takeOver(
            "USER_CODE_ERROR",
            `the sandbox worker crashed while running code${error ? `: ${String(error).slice(0, 200)}` : ""}`,
          );
    this.onExit(answered || this.killedByWatchdog);
  }

  /** Watchdog tick (every few ms while leases exist). CPython's check reads then clears the
   * interrupt flag non-atomically and can drop one store, so it is re-asserted on every tick
   * until the call ends; a loop that swallows every KeyboardInterrupt gets the thread
   * terminated once the grace period is over.
   * @param {number} now
   * @param {number} graceMs
   */
  watch(now, graceMs) {
    if (this.dead || Atomics.load(this.callState, 0) !== BUSY) return;
    const deadline = /** @type {number} */ (this.callDeadline[0]);
    if (now < deadline) return;
    if (now < deadline + graceMs) {
      Atomics.store(this.flag, 0, SIGINT);
      return;
    }
    if (this.takeOver("TIMEOUT", "time limit exceeded; the worker was terminated")) {
      this.dead = true;
      this.killedByWatchdog = true;
      void this.worker.terminate();
    }
  }

  async kill() {
    this.dead = true;
    this.shutDown = true;
    await this.worker.terminate();
  }
}
