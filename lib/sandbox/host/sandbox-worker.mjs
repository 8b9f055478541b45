// Host-side handle of one worker thread: deadlines (interrupt, then terminate) and call routing.
import { failure } from "./failure.mjs";

const SIGINT = 2;
const BOOT_TIMEOUT_MS = 60_000;

export class SandboxWorker {
  constructor(Worker, shared, snapshot) {
    this.state = "booting";
    this.key = null;
    this.episodes = 0;
    this.dead = false;
    this.fatal = false;
    this.current = null;
    this.seq = 0;
    this.onExit = () => {};
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    this.worker = new Worker(shared.workerUrl, {
      workerData: {
        wasmModule: shared.wasmModule,
        snapshot,
        pyodideUrl: shared.pyodideUrl,
        interruptBuffer: this.flag,
        pythonFiles: shared.pythonFiles,
        limits: shared.limits,
      },
      env: {},
      stdout: true,
      stderr: true,
      // Backstop for the JS heap only: wasm memory is an ArrayBuffer and is capped separately.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    });
    this.worker.stdout.resume(); // drain and drop: nothing a worker prints reaches the protocol
    this.worker.stderr.resume();
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
    this.worker.on("exit", () => this.onGone(null));
  }

  onMessage(message) {
    if (message.ready) {
      clearTimeout(this.bootTimer);
      this.state = "idle";
      this.bootResolve(message);
    } else if (message.bootError) {
      this.dead = true;
      this.bootReject(message.bootError);
      void this.worker.terminate();
    } else if (this.current && message.id === this.current.id) {
      if (!message.fatal) return this.finish({ reply: message.reply });
      this.fatal = true; // retired on release; the episode ends
      const detail = JSON.parse(message.reply).error?.message ?? "unknown failure";
      this.finish({
        ...failure("USER_CODE_ERROR", `the Python runtime failed: ${detail}`),
        terminated: true,
      });
    }
  }

  onGone(error) {
    if (this.dead && !this.current) return;
    this.dead = true;
    if (this.state === "booting") this.bootReject(error ? String(error) : "worker exited during boot");
    if (this.current) {
      const oom = error && error.code === "ERR_WORKER_OUT_OF_MEMORY";
      const crash = oom
        ? failure("MEMORY", "the worker ran out of JavaScript heap")
        : failure(
            "USER_CODE_ERROR",
            `the sandbox worker crashed while running code${error ? `: ${String(error).slice(0, 200)}` : ""}`,
          );
      this.finish({ ...crash, terminated: true });
    }
    this.onExit();
  }

  call(req, timeoutMs, graceMs) {
    if (this.dead)
      return Promise.resolve(failure("SANDBOX_UNAVAILABLE", "the episode's worker is gone", false));
    if (this.current)
      return Promise.resolve(failure("INVALID_REQUEST", "another call is still running on this episode"));
    Atomics.store(this.flag, 0, 0);
    return new Promise((resolve) => {
      const id = ++this.seq;
      this.current = { id, resolve, timer: null, poke: null };
      this.current.timer = setTimeout(() => this.interrupt(graceMs), timeoutMs);
      this.worker.postMessage({ id, req });
    });
  }

  /** CPython's check reads then clears the flag non-atomically and can drop one store, so the
   * flag is re-asserted every 5 ms until a reply comes; a loop that swallows every
   * KeyboardInterrupt gets the thread terminated after the grace period. */
  interrupt(graceMs) {
    const current = this.current;
    if (!current) return;
    const poke = () => Atomics.store(this.flag, 0, SIGINT);
    poke();
    current.poke = setInterval(poke, 5);
    current.timer = setTimeout(() => {
      this.dead = true;
      this.finish({
        ...failure("TIMEOUT", "time limit exceeded; the worker was terminated"),
        terminated: true,
      });
      void this.worker.terminate();
    }, graceMs);
  }

  finish(result) {
    const current = this.current;
    if (!current) return;
    this.current = null;
    clearTimeout(current.timer);
    clearInterval(current.poke);
    Atomics.store(this.flag, 0, 0);
    current.resolve(result);
  }

  async kill() {
    this.dead = true;
    this.finish(failure("SANDBOX_UNAVAILABLE", "the worker was shut down", true));
    await this.worker.terminate();
  }
}
