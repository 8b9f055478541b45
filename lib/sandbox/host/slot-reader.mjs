// The slot channel, host side: reads a slot's socket whenever its worker is not reading it
// (see channel.mjs) and forwards the data to that worker, handing the socket back at once. A
// call for a slot whose worker is gone is answered here, so the server never waits on a slot
// nobody reads.
import { Socket } from "node:net";
import { FIRST_SLOT_FD, READER_FORWARDED, READER_HOST, failureLine, writeLine } from "./slot-protocol.mjs";

const NEWLINE = 10;

export class SlotReader {
  /** `workerOf()` returns the slot's live worker, if any. */
  constructor(slot, workerOf) {
    this.fd = FIRST_SLOT_FD + slot;
    this.workerOf = workerOf;
    this.reader = new Int32Array(new SharedArrayBuffer(4)); // 0 = READER_WORKER: nobody reads yet
    this.orphan = Buffer.alloc(0);
    // Registering the socket with the event loop also makes it non-blocking, which the worker's
    // synchronous polling relies on. It is never closed: slots outlive their workers.
    this.socket = new Socket({
      fd: this.fd,
      readable: true,
      writable: false,
      onread: { buffer: Buffer.allocUnsafe(1 << 16), callback: (n, buf) => this.onData(buf, n) },
    });
    this.socket.pause();
    this.socket.on("error", () => {}); // the server went away; stdin closes and the host exits
  }

  /** The worker stopped reading (its spin window passed, or it died): watch the socket. */
  takeOver() {
    Atomics.store(this.reader, 0, READER_HOST);
    this.socket.resume();
  }

  /** Returns false to pause the socket: the worker reads again from now on. */
  onData(buffer, n) {
    const data = Buffer.from(buffer.subarray(0, n));
    const worker = this.workerOf();
    if (worker) {
      Atomics.store(this.reader, 0, READER_FORWARDED); // the worker reads again once it has this

      worker.forward(data);
      return false;
    }
    this.answerOrphans(data);
    return true;
  }

  /** No worker on the slot: every call here belongs to a lease whose worker died. */
  answerOrphans(data) {
    let rest = this.orphan.length ? Buffer.concat([this.orphan, data]) : data;
    for (let nl = rest.indexOf(NEWLINE); nl !== -1; nl = rest.indexOf(NEWLINE)) {
      const line = rest.subarray(0, nl).toString("utf8");
      rest = rest.subarray(nl + 1);
      if (/^\d+ release$/.test(line)) continue;
      try {
        writeLine(this.fd, failureLine("SANDBOX_UNAVAILABLE", "the episode's worker is gone", true));
      } catch {
        // the server closed the channel
      }
    }
    this.orphan = Buffer.from(rest);
  }
}
