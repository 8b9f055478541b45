// @ts-check
// The slot channel, worker side. The server made one socket per pool slot (fd 3 + slot in the
// host process, non-blocking: see lib/sandbox/socket-pairs.ts); a leased worker reads its calls
// there and writes replies straight back (slot-protocol.mjs), never through the host's main
// thread. Nobody else ever reads the socket, so a line can never be split between two readers.
//
// Between two calls of a lease the worker polls. Right after a reply it spins for up to 1 ms
// (at most `maxSpinners` workers at once, cores - 1), because a thread that slept runs the next
// call with cold caches — on the 2-core VM a no-op call into Pyodide took ~40 µs after a 0.2 ms
// sleep against ~18 µs after a 0.2 ms spin — and batch rollouts send the next step well within
// the window. After that it sleeps between polls, each pause a quarter of the time it has waited
// (from 50 µs, at most 4 ms), so a call that comes late (an LLM agent thinking) costs little
// latency and an idle lease little CPU. Polls are not free: one that finds nothing costs ~6-8 µs
// (the failed read throws) besides its wake-up. Pauses of an eighth from 20 µs would take ~20
// polls over a 1 ms gap, and with clients that leave such gaps between calls (an HTTP request
// per call, as MCP's) the workers would spend a third more CPU per step than with a WebSocket
// client; a quarter from 50 µs polls half as often (the serve bench's workers: 0.66 → 0.50 ms of CPU per
// WebSocket step, ~1.0 → 0.65 per MCP step, 32 sessions on 2 cores) for at most a quarter more
// wait on a late call (a lone session's submit, whose check worker sat idle through the episode:
// ~3.5 → ~4.5 ms p50). (The host used to watch idle slots from its event loop with a
// net.Socket; that needs network permission, which the host no longer has.)
import { readSync } from "node:fs";

const NEWLINE = 10;
const CHUNK = 1 << 16;
const SPIN_MS = 1;
/** Mid-line (the rest of a large request is on its way). */
const MIN_PAUSE_MS = 0.02;
/** Between calls: the first pause, and each pause's share of the time waited so far. */
const FIRST_PAUSE_MS = 0.05;
const PAUSE_SHARE = 1 / 4;
const MAX_PAUSE_MS = 4;
const nap = new Int32Array(new SharedArrayBuffer(4));

/** The slot socket and the spin budget shared by all workers (see the top of this file).
 * @typedef {{ fd: number, spinners: Int32Array, maxSpinners: number, spinning: Int32Array }} ChannelShared
 */

export class Channel {
  /**
   * shared: { fd, spinners, maxSpinners, spinning } — `spinning` is this worker's flag, so the host
   * can return its spin budget if it dies spinning. onLine(line) runs one request line (its
   * UTF-8 bytes, without the newline);
   * wantsMore() says whether a lease still awaits calls.
   * @param {ChannelShared} shared
   * @param {(line: Buffer) => void} onLine
   * @param {() => boolean} wantsMore
   */
  constructor(shared, onLine, wantsMore) {
    this.fd = shared.fd;
    this.spinners = shared.spinners;
    this.maxSpinners = shared.maxSpinners;
    this.spinning = shared.spinning;
    this.onLine = onLine;
    this.wantsMore = wantsMore;
    /** @type {Buffer[]} the partial line read so far */
    this.parts = [];
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.lastLineAt = 0;
    this.quick = true; // did the last call come within the spin window?
    this.hasSpin = false;
  }

  /** Serves the current lease until its release line; false once the server closed the socket. */
  serve() {
    this.quick = true; // a lease's first call usually follows at once
    this.lastLineAt = performance.now();
    try {
      while (this.wantsMore()) {
        let n;
        try {
          n = readSync(this.fd, this.chunk, 0, CHUNK, null);
        } catch (error) {
          const code = error && /** @type {NodeJS.ErrnoException} */ (error).code;
          if (code !== "EAGAIN" && code !== "EINTR") return false;
          this.wait();
          continue;
        }
        if (n === 0) return false;
        this.quick = performance.now() - this.lastLineAt < SPIN_MS || this.hasSpin;
        this.push(this.chunk.subarray(0, n));
      }
      return true;
    } finally {
      this.releaseSpin();
    }
  }

  /** Nothing to read yet: spin while the window is open and budget allows, else sleep a while. */
  wait() {
    // Mid-line: a large request arrives in pieces as the server writes them; backing off here
    // (up to 4 ms a pause) would stall it, so wait the shortest time.
    if (this.parts.length > 0) return void Atomics.wait(nap, 0, 0, MIN_PAUSE_MS);
    const waited = performance.now() - this.lastLineAt;
    if (waited < SPIN_MS && this.quick && (this.hasSpin || this.acquireSpin())) return;
    this.releaseSpin();
    Atomics.wait(nap, 0, 0, Math.min(MAX_PAUSE_MS, Math.max(FIRST_PAUSE_MS, waited * PAUSE_SHARE)));
  }

  /** Runs every complete line in `data`, keeping a partial last line for the next read.
   * @param {Buffer} data
   */
  push(data) {
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      this.parts.push(data.subarray(start, nl));
      const line = Buffer.concat(this.parts);
      this.parts = [];
      start = nl + 1;
      this.onLine(line);
      this.lastLineAt = performance.now();
    }
    if (start < data.length) this.parts.push(Buffer.from(data.subarray(start)));
  }

  /** @returns {boolean} whether this worker may spin now */
  acquireSpin() {
    if (Atomics.add(this.spinners, 0, 1) < this.maxSpinners) {
      Atomics.store(this.spinning, 0, 1);
      this.hasSpin = true;
      return true;
    }
    Atomics.sub(this.spinners, 0, 1);
    return false;
  }

  releaseSpin() {
    if (!this.hasSpin) return;
    this.hasSpin = false;
    Atomics.store(this.spinning, 0, 0);
    Atomics.sub(this.spinners, 0, 1);
  }
}
