/**
 * The server side of the sandbox host: spawns host/sandbox-host.mjs as a separate, hardened Node
 * process with an empty environment, and talks JSON lines to it. Generated code never runs in
 * the calling (Next.js / worker) process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { Result } from "../core/result";
import { err, ok } from "../core/result";
import { type CallError, type HarnessRequest, sandboxError } from "./backend";
import { hostBwrapCommand } from "./bwrap";
import { readLines, tailOf } from "./line-reader";
import type { SandboxOptions } from "./options";
import { type HostNode, hardenedNodeArgs } from "./host-node";
import { EMPTY_ENV, HOST_DIR, HOST_SCRIPT, PYTHON_DIR } from "./paths";
import { type HostMessage, HostMessageSchema, type HostRequest, type SandboxError } from "./sandbox.schema";
import { SlotChannel } from "./slot-channel";
import { type SocketPair, createSocketPairs } from "./socket-pairs";

export type HostReply = Extract<HostMessage, { id: number; ok: true }>;

/** What a host process is started with; `jailed`: inside bubblewrap (decided once per runner). */
export type HostSpec = {
  options: SandboxOptions;
  node: HostNode;
  pyodide: string;
  snapshotPath: string | null;
  /** The digest the snapshot must have to be booted from (snapshot-trust.ts); null: not yet known. */
  snapshotSha256: string | null;
  generation: number;
  jailed: boolean;
};

const HOST_START_TIMEOUT_MS = 30_000;

type Pending = { resolve: (message: Result<HostReply, SandboxError & { terminated?: boolean }>) => void };

/** Room for every worker plus one replacement each booting while a retired thread still exits. */
/** Twice the workers (a retiring thread holds its slot until it exits), the check worker included. */
const slotCount = (options: SandboxOptions) => 2 * (options.poolSize + options.spareWorkers + 1);

export class HostProcess {
  readonly generation: number;
  private child: ChildProcess;
  private stdin: Writable;
  private slots: SlotChannel[];
  private leaseSlots = new Map<number, SlotChannel>();
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail: () => string;
  readonly ready: Promise<Result<void, SandboxError>>;
  exited = false;

  /** Makes the slot sockets (see socket-pairs.ts), then spawns the host. */
  static async start(spec: HostSpec): Promise<HostProcess> {
    const pairs = await createSocketPairs(slotCount(spec.options));
    return new HostProcess(spec, pairs);
  }

  private constructor(spec: HostSpec, pairs: SocketPair[]) {
    const { options, node, pyodide, snapshotPath, generation, jailed } = spec;
    this.generation = generation;
    const config = {
      pyodideDir: pyodide,
      pythonDir: PYTHON_DIR,
      snapshotPath: options.useSnapshot ? snapshotPath : null,
      snapshotSha256: spec.snapshotSha256,
      memoryMiB: options.memoryMiB,
      limits: { max_output_bytes: options.maxOutputBytes, max_log_bytes: options.maxLogBytes },
      pool: {
        poolSize: options.poolSize,
        spares: options.spareWorkers,
        maxEpisodes: options.maxEpisodesPerWorker,
        graceMs: options.graceMs,
        bootFailuresAllowed: 3,
        slots: slotCount(options),
      },
    };
    const reads = [pyodide, HOST_DIR, PYTHON_DIR, options.cacheDir];
    const args = [...hardenedNodeArgs(node, reads, ["--allow-worker"]), HOST_SCRIPT, JSON.stringify(config)];
    const [command, ...rest] = jailed ? hostBwrapCommand(node.path, args, reads) : [node.path, ...args];
    // env: {} — the host (and so any escape from it) never sees the server's secrets.
    try {
      this.child = spawn(command ?? node.path, rest, {
        env: EMPTY_ENV,
        stdio: ["pipe", "pipe", "pipe", ...pairs.map((pair) => pair.child)],
      });
    } finally {
      for (const pair of pairs) pair.child.destroy(); // the host holds its own copies now
    }
    const [stdin, stdout, stderr] = this.child.stdio as unknown as [Writable, Readable, Readable];
    const channels = pairs.map((pair) => pair.server);
    this.stdin = stdin;
    this.stdin.on("error", () => {}); // EPIPE once the host is gone; its exit fails the requests
    // A reply carries at most maxOutputBytes of harness output; allow the envelope on top.
    this.slots = channels.map(
      (socket) => new SlotChannel(socket, options.maxOutputBytes + 64 * 1024, () => this.kill()),
    );
    this.stderrTail = tailOf(stderr);
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
      this.listen(stdout, () => {
        clearTimeout(timer);
        resolve(ok(undefined));
      });
      this.child.on("exit", (code, signal) => fail(String(signal ?? code)));
      this.child.on("error", (error) => fail(error.message));
    });
    this.child.on("exit", () => this.onExit());
    this.child.on("error", () => this.onExit());
  }

  private listen(stdout: Readable, onReady: () => void): void {
    // Control messages only (replies to calls come on the slot channels): small lines.
    readLines(stdout, 1024 * 1024, {
      onLine: (line) => {
        const parsed = HostMessageSchema.safeParse(safeJson(line));
        if (!parsed.success) return;
        const message: HostMessage = parsed.data;
        if ("type" in message) {
          if (message.type === "lost") this.leaseSlots.get(message.lease)?.markLost(message.lease);
          else onReady();
          return;
        }
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
    for (const slot of this.slots) {
      slot.fail(failure);
      slot.close();
    }
  }

  /** Binds a granted lease to its slot's channel. */
  bindLease(lease: number, slot: number): boolean {
    const channel = this.slots[slot];
    if (!channel) return false;
    this.leaseSlots.set(lease, channel);
    return true;
  }

  /** One harness call on the lease's slot; `safetyMs` bounds the wait even if the host hangs. */
  async call(
    lease: number,
    request: HarnessRequest,
    timeoutMs: number,
    safetyMs: number,
  ): Promise<Result<unknown, CallError>> {
    const channel = this.leaseSlots.get(lease);
    if (this.exited || !channel)
      return err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox host is not running", true));
    return channel.call(lease, request, timeoutMs, safetyMs);
  }

  /** Ends the lease on its channel (the worker stops reading), then in the pool. */
  async release(lease: number, recycle: boolean, weight: number): Promise<void> {
    const channel = this.leaseSlots.get(lease);
    this.leaseSlots.delete(lease);
    if (this.exited) return;
    channel?.release(lease);
    await this.request({ type: "release", lease, recycle, weight }, 5_000);
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
      this.stdin.write(JSON.stringify({ id, ...body }) + "\n");
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.stdin.end(); // the host drains its workers and exits when stdin closes
    for (const slot of this.slots) slot.close(); // leased workers blocked on a read see EOF
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
