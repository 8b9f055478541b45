/**
 * Server end of one pool slot of the sandbox host: a socket (fd 3 + slot in the host) on which
 * the slot's current worker reads calls and writes replies directly, without a hop through the
 * host's main thread. Only the slot's current lease calls on it; its calls may be pipelined. Lines: `<lease> <timeoutMs> <request JSON>` / `<lease> release` out; the harness
 * reply JSON or `{host_error, terminated}` (a kill or crash the host answered) in.
 */
import type { Duplex } from "node:stream";
import { type Result, err, ok } from "../core/result";
import type { CallError } from "./backend";
import { sandboxError } from "./backend";
import { readLines } from "./line-reader";
import { HostFailureLineSchema, type HarnessRequest } from "./sandbox.schema";

type Pending = {
  lease: number;
  safetyMs: number;
  resolve: (result: Result<unknown, CallError>) => void;
};

export class SlotChannel {
  /** Calls written and not yet answered, oldest first: the worker answers them in order. */
  private readonly queue: Pending[] = [];
  private readonly lost = new Set<number>();
  private headTimer: NodeJS.Timeout | null = null;

  /** `onStuck` runs when the call at the head outlives its safety bound (the host is broken). */
  constructor(
    private readonly socket: Duplex,
    maxLineBytes: number,
    private readonly onStuck: () => void = () => {},
  ) {
    socket.on("error", () => {}); // EPIPE once the host is gone; the host's exit fails the calls
    readLines(socket, maxLineBytes, {
      onLine: (line) => this.onLine(line),
      onOverflow: () =>
        this.failAll(
          err({ ...sandboxError("OUTPUT_TOO_LARGE", "the sandbox reply is too large"), terminated: true }),
        ),
    });
  }

  /**
   * Resolves with the worker's (still untrusted) reply; never rejects. Calls may be written before
   * the previous ones are answered (a shared worker's episodes): the worker runs them in order,
   * each under its own deadline from when it starts, so `safetyMs` — how long the host may take
   * to answer before it counts as broken — runs from when the call reaches the head of the line.
   */
  call(
    lease: number,
    request: HarnessRequest,
    timeoutMs: number,
    safetyMs: number,
  ): Promise<Result<unknown, CallError>> {
    if (this.lost.has(lease)) return Promise.resolve(err(workerGone()));
    if (this.queue.some((p) => p.lease !== lease))
      return Promise.resolve(
        err(sandboxError("INVALID_REQUEST", "another lease's call is still running on this slot")),
      );
    return new Promise((resolve) => {
      this.queue.push({ lease, safetyMs, resolve });
      if (this.queue.length === 1) this.armHead();
      this.socket.write(`${lease} ${timeoutMs} ${JSON.stringify(request)}\n`);
    });
  }

  release(lease: number): void {
    this.lost.delete(lease);
    this.socket.write(`${lease} release\n`);
  }

  /** The host reported that the lease's worker died between calls. */
  markLost(lease: number): void {
    this.lost.add(lease);
    if (this.queue[0]?.lease === lease) this.failAll(err(workerGone()));
  }

  /** Fails every call in flight (the host exited, or missed its deadline). */
  fail(error: CallError): void {
    this.failAll(err(error));
  }

  close(): void {
    this.socket.destroy();
  }

  private onLine(line: string): void {
    if (this.queue.length === 0) return; // a late answer to a call that was already failed
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.failAll(
        err({ ...sandboxError("SANDBOX_UNAVAILABLE", "malformed reply from the sandbox"), terminated: true }),
      );
    }
    const failure = HostFailureLineSchema.safeParse(parsed);
    if (!failure.success) return this.settleHead(ok(parsed));
    const error = err({ ...failure.data.host_error, terminated: failure.data.terminated });
    // The host answered for a worker it killed: the calls queued behind will never run.
    if (failure.data.terminated) {
      this.settleHead(error);
      this.failAll(err(workerGone()));
    } else this.settleHead(error);
  }

  private settleHead(result: Result<unknown, CallError>): void {
    const head = this.queue.shift();
    this.disarmHead();
    if (this.queue.length > 0) this.armHead();
    head?.resolve(result);
  }

  private failAll(result: Result<unknown, CallError>): void {
    const all = this.queue.splice(0);
    this.disarmHead();
    for (const pending of all) pending.resolve(result);
  }

  private armHead(): void {
    const head = this.queue[0];
    if (!head) return;
    this.headTimer = setTimeout(() => {
      this.failAll(
        err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox host stopped answering; restarting it", true)),
      );
      this.onStuck(); // a host that misses its own deadlines is broken: the next call restarts it
    }, head.safetyMs);
  }

  private disarmHead(): void {
    if (this.headTimer) clearTimeout(this.headTimer);
    this.headTimer = null;
  }
}

const workerGone = (): CallError => ({
  ...sandboxError("SANDBOX_UNAVAILABLE", "the episode's worker is gone", true),
  terminated: true,
});
