/**
 * Server end of one pool slot of the sandbox host: a socket (fd 3 + slot in the host) on which
 * the slot's current worker reads calls and writes replies directly, without a hop through the
 * host's main thread. One call at a time per slot (a lease's calls are serialized by its
 * episode). Lines: `<lease> <timeoutMs> <request JSON>` / `<lease> release` out; the harness
 * reply JSON or `{host_error, terminated}` (a kill or crash the host answered) in.
 */
import type { Duplex } from "node:stream";
import { type Result, err, ok } from "../core/result";
import type { CallError } from "./backend";
import { sandboxError } from "./backend";
import { readLines } from "./line-reader";
import { HostFailureLineSchema, type HarnessRequest } from "./sandbox.schema";

type Pending = { lease: number; resolve: (result: Result<unknown, CallError>) => void };

export class SlotChannel {
  private pending: Pending | null = null;
  private readonly lost = new Set<number>();

  constructor(
    private readonly socket: Duplex,
    maxLineBytes: number,
  ) {
    socket.on("error", () => {}); // EPIPE once the host is gone; the host's exit fails the calls
    readLines(socket, maxLineBytes, {
      onLine: (line) => this.onLine(line),
      onOverflow: () =>
        this.settle(
          err({ ...sandboxError("OUTPUT_TOO_LARGE", "the sandbox reply is too large"), terminated: true }),
        ),
    });
  }

  /** Resolves with the worker's (still untrusted) reply; never rejects. */
  call(lease: number, request: HarnessRequest, timeoutMs: number): Promise<Result<unknown, CallError>> {
    if (this.lost.has(lease)) return Promise.resolve(err(workerGone()));
    if (this.pending)
      return Promise.resolve(
        err(sandboxError("INVALID_REQUEST", "another call is still running on this episode")),
      );
    return new Promise((resolve) => {
      this.pending = { lease, resolve };
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
    if (this.pending?.lease === lease) this.settle(err(workerGone()));
  }

  /** Fails the call in flight (the host exited, or missed its deadline). */
  fail(error: CallError): void {
    this.settle(err(error));
  }

  close(): void {
    this.socket.destroy();
  }

  private onLine(line: string): void {
    if (!this.pending) return; // a late answer to a call that was already failed
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.settle(
        err({ ...sandboxError("SANDBOX_UNAVAILABLE", "malformed reply from the sandbox"), terminated: true }),
      );
    }
    const failure = HostFailureLineSchema.safeParse(parsed);
    if (failure.success)
      return this.settle(err({ ...failure.data.host_error, terminated: failure.data.terminated }));
    this.settle(ok(parsed));
  }

  private settle(result: Result<unknown, CallError>): void {
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(result);
  }
}

const workerGone = (): CallError => ({
  ...sandboxError("SANDBOX_UNAVAILABLE", "the episode's worker is gone", true),
  terminated: true,
});
