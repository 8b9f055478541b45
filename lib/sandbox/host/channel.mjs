// The slot channel, worker side. The server created one socket per pool slot (fd 3 + slot in
// the host process); calls come in on it and the worker writes replies straight back
// (slot-protocol.mjs), never through the host's main thread.
//
// Between calls of a lease the worker reads the socket itself, polling it for a moment (spin):
// a call that comes soon wakes no thread at all. A thread that slept wakes with cold caches —
// on the 2-core VM a no-op call into Pyodide took ~40 µs after a 0.2 ms sleep against ~18 µs
// after a 0.2 ms spin — and batch rollouts send the next step well within the window. When the
// window passes, the worker hands the socket to the host's event loop (slot-reader.mjs), which
// forwards the next data and hands it back. At most `maxSpinners` workers spin at once
// (cores - 1), so spinning never starves the host, and a worker whose calls come slowly (an LLM
// agent thinking between steps) stops spinning until a call comes quickly again.
import { readSync } from "node:fs";
import { READER_HOST, READER_WORKER } from "./slot-protocol.mjs";

const NEWLINE = 10;
const SPIN_MS = 1;
const CHUNK = 1 << 16;

export class Channel {
  /**
   * shared: { fd, reader, spinners, maxSpinners, spinning } — `reader` is the slot's reader word,
   * `spinning` this worker's flag (so the host can return its spin budget if it dies spinning).
   * onLine(line) runs a request line; wantsMore() says whether a lease awaits calls;
   * handOver() asks the host to read the socket.
   */
  constructor(shared, onLine, wantsMore, handOver) {
    Object.assign(this, shared);
    this.onLine = onLine;
    this.wantsMore = wantsMore;
    this.handOver = handOver;
    this.parts = [];
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.quick = true; // did the last call come within the spin window of the one before?
    this.lastLineAt = 0;
  }

  /** A lease starts: its first call usually follows at once. */
  start() {
    this.quick = true;
    this.poll();
  }

  /** Data the host read and forwarded; the socket is ours again (every byte before it has now
   * been consumed, so reading the socket cannot overtake it). */
  receive(data) {
    Atomics.store(this.reader, 0, READER_WORKER);
    this.quick = performance.now() - this.lastLineAt < SPIN_MS;
    this.push(data);
    this.poll();
  }

  /** Runs every complete line in `data`; true if there was at least one. */
  push(data) {
    let start = 0;
    let ran = false;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      this.parts.push(data.subarray(start, nl));
      const line = Buffer.concat(this.parts).toString("utf8");
      this.parts = [];
      start = nl + 1;
      this.onLine(line);
      this.lastLineAt = performance.now();
      ran = true;
    }
    if (start < data.length) this.parts.push(Buffer.from(data.subarray(start)));
    return ran;
  }

  /** Reads the lease's next calls while they come quickly, then hands the socket to the host.
   * With no lease, nothing is read: lines wait in the socket for the next lease. */
  poll() {
    if (Atomics.load(this.reader, 0) !== READER_WORKER || !this.wantsMore()) return;
    if (this.quick && this.acquireSpin()) {
      try {
        if (!this.spin()) return; // the server closed the channel
      } finally {
        this.releaseSpin();
      }
    }
    if (!this.wantsMore()) return;
    Atomics.store(this.reader, 0, READER_HOST);
    this.handOver();
  }

  /** Synchronous polling; the socket is non-blocking (the host's event loop registered it). */
  spin() {
    let until = performance.now() + SPIN_MS;
    this.quick = false; // unless a call comes within the window
    while (this.wantsMore() && performance.now() < until) {
      let n;
      try {
        n = readSync(this.fd, this.chunk, 0, CHUNK, null);
      } catch (error) {
        if (error && error.code === "EAGAIN") continue;
        return false;
      }
      if (n === 0) return false;
      if (this.push(this.chunk.subarray(0, n))) {
        until = performance.now() + SPIN_MS;
        this.quick = true;
      }
    }
    return true;
  }

  acquireSpin() {
    if (Atomics.add(this.spinners, 0, 1) < this.maxSpinners) {
      Atomics.store(this.spinning, 0, 1);
      return true;
    }
    Atomics.sub(this.spinners, 0, 1);
    return false;
  }

  releaseSpin() {
    Atomics.store(this.spinning, 0, 0);
    Atomics.sub(this.spinners, 0, 1);
  }
}
