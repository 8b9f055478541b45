/**
 * The server side of the sandbox host: spawns host/sandbox-host.mjs as a separate, hardened Node
 * process with an empty environment, and talks JSON lines to it. Generated code never runs in
 * the calling (Next.js / worker) process.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { Result } from "../core/result";
import { err, ok } from "../core/result";
import { sandboxError } from "./backend";
import { hostBwrapCommand } from "./bwrap";
import { readLines, tailOf } from "./line-reader";
import type { SandboxOptions } from "./options";
import { EMPTY_ENV, HOST_DIR, HOST_SCRIPT, PYTHON_DIR, hardenedNodeArgs } from "./paths";
import { type HostMessage, HostMessageSchema, type HostRequest, type SandboxError } from "./sandbox.schema";

export type HostReply = Extract<HostMessage, { id: number; ok: true }>;

const HOST_START_TIMEOUT_MS = 30_000;

type Pending = { resolve: (message: Result<HostReply, SandboxError & { terminated?: boolean }>) => void };

export class HostProcess {
  readonly generation: number;
  private child: ChildProcessWithoutNullStreams;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail: () => string;
  readonly ready: Promise<Result<void, SandboxError>>;
  exited = false;

  constructor(
    options: SandboxOptions,
    pyodide: string,
    snapshotPath: string | null,
    generation: number,
    jailed: boolean,
  ) {
    this.generation = generation;
    const config = {
      pyodideDir: pyodide,
      pythonDir: PYTHON_DIR,
      snapshotPath: options.useSnapshot ? snapshotPath : null,
      memoryMiB: options.memoryMiB,
      limits: { max_output_bytes: options.maxOutputBytes, max_log_bytes: options.maxLogBytes },
      pool: {
        poolSize: options.poolSize,
        spares: options.spareWorkers,
        maxEpisodes: options.maxEpisodesPerWorker,
        graceMs: options.graceMs,
        bootFailuresAllowed: 3,
      },
    };
    const reads = [pyodide, HOST_DIR, PYTHON_DIR, options.cacheDir];
    const args = [...hardenedNodeArgs(reads, ["--allow-worker"]), HOST_SCRIPT, JSON.stringify(config)];
    const [command, ...rest] = jailed ? hostBwrapCommand(args, reads) : [process.execPath, ...args];
    // env: {} — the host (and so any escape from it) never sees the server's secrets.
    this.child = spawn(command ?? process.execPath, rest, {
      env: EMPTY_ENV,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.stderrTail = tailOf(this.child.stderr);
    this.ready = new Promise((resolve) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        resolve(
          err(
            sandboxError(
              "SANDBOX_UNAVAILABLE",
              `sandbox host failed to start (${why}): ${this.stderrTail().slice(-500)}`,
              true,
            ),
          ),
        );
      };
      // A host that never says "ready" must not hang every load behind it.
      const timer = setTimeout(() => {
        fail("no ready signal within 30 s");
        this.kill();
      }, HOST_START_TIMEOUT_MS);
      this.listen((message) => {
        if (!("type" in message)) return;
        clearTimeout(timer);
        resolve(ok(undefined));
      });
      this.child.on("exit", (code, signal) => fail(String(signal ?? code)));
      this.child.on("error", (error) => fail(error.message));
    });
    this.child.on("exit", () => this.onExit());
    this.child.on("error", () => this.onExit());
  }

  private listen(onReady: (message: HostMessage) => void): void {
    // A reply carries at most maxOutputBytes of harness output; allow the envelope on top.
    readLines(this.child.stdout, 64 * 1024 * 1024, {
      onLine: (line) => {
        const parsed = HostMessageSchema.safeParse(safeJson(line));
        if (!parsed.success) return;
        const message = parsed.data;
        if ("type" in message) return onReady(message);
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        if (message.ok) pending.resolve(ok(message));
        else pending.resolve(err({ ...message.error, terminated: message.terminated }));
      },
      onOverflow: () => this.kill(),
    });
  }

  private onExit(): void {
    if (this.exited) return;
    this.exited = true;
    const failure = sandboxError(
      "SANDBOX_UNAVAILABLE",
      `the sandbox host exited: ${this.stderrTail().slice(-300)}`,
      true,
    );
    for (const pending of this.pending.values()) pending.resolve(err(failure));
    this.pending.clear();
  }

  /** One request; `safetyMs` bounds the wait even if the host itself stops answering. */
  request(
    body: HostRequest,
    safetyMs: number,
  ): Promise<Result<HostReply, SandboxError & { terminated?: boolean }>> {
    if (this.exited)
      return Promise.resolve(
        err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox host is not running", true)),
      );
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(
          err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox host stopped answering; restarting it", true)),
        );
        this.kill(); // a host that misses its own deadlines is broken: the next call restarts it
      }, safetyMs);
      this.pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
      });
      this.child.stdin.write(JSON.stringify({ id, ...body }) + "\n");
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end(); // the host drains its workers and exits when stdin closes
    const timer = setTimeout(() => this.kill(), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
