/**
 * python3 backends: one harness process per episode, speaking JSON lines.
 * - "bwrap": inside bubblewrap — no network, read-only root, empty env, own pid namespace,
 *   address-space and CPU limits; a deadline kills the whole jail.
 * - "native": the same harness unsandboxed. Only for the benchmark baseline and the differential
 *   test (lib/sandbox/testing.ts); never reachable from env vars or the public entry.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { type Result, err, ok } from "../core/result";
import { type Backend, type CallError, type HarnessRequest, type Lease, sandboxError } from "./backend";
import { bwrapCommand, bwrapProblem } from "./bwrap";
import { readLines, tailOf } from "./line-reader";
import type { SandboxOptions } from "./options";
import { EMPTY_ENV, PYTHON_DIR } from "./paths";

/** A fresh unpredictable reply tag per request, cut from a pooled random buffer: one
 * randomBytes(12) per step cost ~4 % of the server's CPU at 32 sessions (a syscall each). */
const TAG_BYTES = 12;
let tagPool = Buffer.alloc(0);
let tagOffset = 0;
function nextTag(): string {
  if (tagOffset + TAG_BYTES > tagPool.length) {
    tagPool = randomBytes(TAG_BYTES * 256);
    tagOffset = 0;
  }
  tagOffset += TAG_BYTES;
  return tagPool.toString("hex", tagOffset - TAG_BYTES, tagOffset);
}

/** `jail`: the process may start no other process (python/noproc.py); the unsandboxed native
 * baseline runs without the filter. */
const BOOTSTRAP = (dir: string, jail: boolean) =>
  `import sys; sys.path.insert(0, ${JSON.stringify(dir)}); import harness; harness.serve(jail=${jail ? "True" : "False"})`;

export type ProcessMode = "bwrap" | "native";

export function createProcessBackend(options: SandboxOptions, mode: ProcessMode): Backend {
  if (mode === "bwrap") {
    const problem = bwrapProblem(options.python);
    if (problem) throw new Error(problem);
  } else if (!existsSync(options.python)) {
    throw new Error(`python3 not found at ${options.python} (set SANDBOX_PYTHON)`);
  }
  const spares: HarnessProcess[] = []; // fresh: never ran user code
  const idle = new Map<string, HarnessProcess[]>(); // ran the code of `key`; reused only for it
  const live = new Set<HarnessProcess>();
  const readyMs: number[] = [];
  let closed = false;

  const start = () => {
    const proc = new HarnessProcess(options, mode, (ms) => readyMs.push(ms));
    live.add(proc);
    proc.onExit = () => live.delete(proc);
    return proc;
  };
  const topUp = () => {
    while (!closed && spares.filter((p) => !p.dead).length < options.spareWorkers) spares.push(start());
  };
  const takeIdle = (key: string) => {
    const list = idle.get(key) ?? [];
    let proc = list.pop();
    while (proc?.dead) proc = list.pop();
    if (list.length === 0) idle.delete(key);
    return proc;
  };
  /** Keeps at most poolSize idle keyed processes; the oldest keys are dropped first. */
  const park = (key: string | null, proc: HarnessProcess) => {
    if (key === null) return void spares.push(proc);
    idle.set(key, [...(idle.get(key) ?? []), proc]);
    let parked = [...idle.values()].reduce((n, list) => n + list.length, 0);
    for (const [oldKey, list] of idle) {
      if (parked <= options.poolSize) break;
      for (const old of list) old.kill();
      parked -= list.length;
      idle.delete(oldKey);
    }
  };

  return {
    name: mode,
    lease(key) {
      if (closed)
        return Promise.resolve(err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox runner is closed")));
      let proc = key === null ? undefined : takeIdle(key);
      if (!proc) {
        proc = spares.shift();
        while (proc?.dead) proc = spares.shift();
      }
      proc ??= start();
      topUp();
      return Promise.resolve(ok(processLease(proc, (p) => park(key, p), options)));
    },
    stats() {
      return Promise.resolve({
        backend: mode,
        workers: live.size,
        readyMs: [...readyMs],
        rssBytes: 0,
        snapshot: false,
      });
    },
    close() {
      closed = true;
      for (const proc of live) proc.kill();
      live.clear();
      idle.clear();
      return Promise.resolve();
    },
  };
}

/** Same policy as the Pyodide pool: a process is reused only for the same code, N times at most. */
function processLease(
  proc: HarnessProcess,
  park: (p: HarnessProcess) => void,
  options: SandboxOptions,
): Lease {
  let released = false;
  return {
    call: (request, timeoutMs) =>
      proc.call({ ...request, timeout_ms: timeoutMs }, timeoutMs, options.graceMs),
    release(recycle, weight = 1) {
      if (!released) {
        released = true;
        proc.episodes += weight;
        // Fractional weights (check runs) add up with rounding error: compare with a tolerance.
        if (!recycle && !proc.dead && proc.episodes < options.maxEpisodesPerWorker - 1e-9) park(proc);
        else proc.kill();
      }
      return Promise.resolve();
    },
  };
}

class HarnessProcess {
  private child: ChildProcessWithoutNullStreams;
  /** Calls written and not yet answered, oldest first: the harness answers them in order. */
  private readonly queue: {
    resolve: (r: Result<unknown, CallError>) => void;
    tag: string;
    limitMs: number;
  }[] = [];
  private headTimer: NodeJS.Timeout | null = null;
  private stderrTail: () => string;
  /** Replies still owed to requests nobody awaits (the initial `configure`). */
  private unclaimed = 1;
  episodes = 0;
  dead = false;
  onExit = () => {};

  private readonly started = performance.now();

  constructor(
    options: SandboxOptions,
    mode: ProcessMode,
    private readonly onReady: (ms: number) => void,
  ) {
    const pythonArgs = [
      "-I",
      "-S",
      "-B",
      "-c",
      BOOTSTRAP(mode === "bwrap" ? "/sandbox" : PYTHON_DIR, mode === "bwrap"),
    ];
    const [command, ...args] =
      mode === "bwrap" ? bwrapCommand(options, pythonArgs) : [options.python, ...pythonArgs];
    this.child = spawn(command ?? options.python, args, {
      env: EMPTY_ENV,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    this.stderrTail = tailOf(this.child.stderr);
    this.child.stdin.on("error", () => {}); // EPIPE after a kill is expected
    readLines(this.child.stdout, options.maxOutputBytes + 64 * 1024, {
      onLine: (line) => this.onLine(line),
      onOverflow: () =>
        this.fail(sandboxError("OUTPUT_TOO_LARGE", "the sandbox wrote more than the output limit"), true),
    });
    this.child.on("exit", (code, signal) => {
      this.dead = true;
      const message = `the python process exited (${signal ?? code}) while running code: ${this.stderrTail().slice(-300)}`;
      this.fail({ ...sandboxError("USER_CODE_ERROR", message), terminated: true }, false);
      this.onExit();
    });
    this.child.on("error", (e) => {
      this.dead = true;
      this.fail(sandboxError("SANDBOX_UNAVAILABLE", `cannot start python: ${e.message}`, true), false);
    });
    this.send(
      { op: "configure", max_output_bytes: options.maxOutputBytes, max_log_bytes: options.maxLogBytes },
      "configure",
    );
  }

  private send(request: HarnessRequest & { timeout_ms?: number }, tag: string): void {
    this.child.stdin.write(`${tag} ${JSON.stringify(request)}\n`);
  }

  private onLine(line: string): void {
    if (this.unclaimed > 0) {
      this.unclaimed -= 1;
      this.onReady(performance.now() - this.started); // python answered: the process is ready
      return;
    }
    const head = this.queue[0];
    if (!head) return; // noise outside a call
    // Not tagged with the oldest call's tag: user code wrote on a protocol fd; the reply follows.
    if (!line.startsWith(`${head.tag} `)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.slice(head.tag.length + 1));
    } catch {
      return this.fail(sandboxError("USER_CODE_ERROR", "the sandbox sent a malformed reply"), true);
    }
    this.queue.shift();
    this.armHead();
    head.resolve(ok(parsed));
  }

  call(
    request: HarnessRequest & { timeout_ms: number },
    timeoutMs: number,
    graceMs: number,
  ): Promise<Result<unknown, CallError>> {
    if (this.dead)
      return Promise.resolve(
        err(sandboxError("SANDBOX_UNAVAILABLE", "the episode's python process is gone")),
      );
    // Calls may be written before earlier ones are answered (a shared worker's episodes): the
    // harness runs them in order, each under its own SIGALRM deadline from when it starts.
    return new Promise((resolve) => {
      const tag = nextTag();
      this.queue.push({ resolve, tag, limitMs: timeoutMs + graceMs });
      if (this.queue.length === 1) this.armHead();
      this.send(request, tag);
    });
  }

  /** The kill timer runs for the call the harness is working on: the oldest one. The harness
   * raises at the deadline itself; this is for code that swallows it. */
  private armHead(): void {
    if (this.headTimer) clearTimeout(this.headTimer);
    this.headTimer = null;
    const head = this.queue[0];
    if (!head) return;
    this.headTimer = setTimeout(
      () =>
        this.fail(
          { ...sandboxError("TIMEOUT", "time limit exceeded; the process was killed"), terminated: true },
          true,
        ),
      head.limitMs,
    );
  }

  /** Fails the call in progress with `error`, and any queued behind it: the process is gone. */
  private fail(error: CallError, kill: boolean): void {
    const [head, ...rest] = this.queue.splice(0);
    this.armHead();
    head?.resolve(err(error));
    const gone: CallError = {
      ...sandboxError("SANDBOX_UNAVAILABLE", "the episode's python process is gone", true),
      terminated: true,
    };
    for (const pending of rest) pending.resolve(err(gone));
    if (kill) this.kill();
  }

  kill(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.dead = true;
    try {
      process.kill(-(this.child.pid ?? 0), "SIGKILL"); // the whole group: bwrap and the jail
    } catch {
      this.child.kill("SIGKILL");
    }
  }
}
