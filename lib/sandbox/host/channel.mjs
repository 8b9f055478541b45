// The slot channel, worker side. The server created one socket per pool slot (fd 3 + slot in
// the host process); a leased worker reads its calls from it and writes replies straight back
// (slot-protocol.mjs), never through the host's main thread.
//
// Reads block: between two calls of a lease the worker thread sleeps in read(2), and nobody else
// ever reads the socket, so a line can never be split between two readers. (The host used to
// watch idle slots from its event loop with a net.Socket; that needs network permission, which
// the host no longer has — see docs/sandbox.md.) A lease always ends with a `release` line, and
// the server closing the socket ends the read with EOF, so a blocked worker always wakes up.
import { readSync } from "node:fs";

const NEWLINE = 10;
const CHUNK = 1 << 16;
const pause = new Int32Array(new SharedArrayBuffer(4));

export class Channel {
  /** onLine(line) runs one request line; wantsMore() says whether a lease still awaits calls. */
  constructor(fd, onLine, wantsMore) {
    this.fd = fd;
    this.onLine = onLine;
    this.wantsMore = wantsMore;
    this.parts = [];
    this.chunk = Buffer.allocUnsafe(CHUNK);
  }

  /** Serves the current lease until its release line; false once the server closed the socket. */
  serve() {
    while (this.wantsMore()) {
      let n;
      try {
        n = readSync(this.fd, this.chunk, 0, CHUNK, null);
      } catch (error) {
        const code = error && error.code;
        if (code === "EINTR") continue;
        if (code === "EAGAIN") {
          Atomics.wait(pause, 0, 0, 1); // a non-blocking descriptor (not expected): poll gently
          continue;
        }
        return false;
      }
      if (n === 0) return false;
      this.push(this.chunk.subarray(0, n));
    }
    return true;
  }

  /** Runs every complete line in `data`, keeping a partial last line for the next read. */
  push(data) {
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      this.parts.push(data.subarray(start, nl));
      const line = Buffer.concat(this.parts).toString("utf8");
      this.parts = [];
      start = nl + 1;
      this.onLine(line);
    }
    if (start < data.length) this.parts.push(Buffer.from(data.subarray(start)));
  }
}
