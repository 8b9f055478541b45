// The slot channel, worker side: a socket the server created for this pool slot (fd 3 + slot in
// the host process). A leased worker blocks in read(2) on it between calls, so a request wakes
// exactly the thread that runs it: one hop each way, like a python3 subprocess. Routing every
// call through the host's main thread cost two more thread wake-ups per step (measured:
// ~300 µs against ~125 µs for a JSON-lines subprocess round trip).
import { readSync, writeSync } from "node:fs";

const CHUNK = 1 << 16;
const NEWLINE = 10;
const nap = new Int32Array(new SharedArrayBuffer(4));

export function createChannel(fd) {
  const chunk = Buffer.allocUnsafe(CHUNK);
  let rest = Buffer.alloc(0);

  function fill() {
    for (;;) {
      try {
        const n = readSync(fd, chunk, 0, CHUNK, null);
        if (n === 0) return false;
        const fresh = Buffer.from(chunk.subarray(0, n)); // `chunk` is reused by the next read
        rest = rest.length === 0 ? fresh : Buffer.concat([rest, fresh]);
        return true;
      } catch (error) {
        // The socket is created blocking; tolerate a non-blocking one rather than spin on it.
        if (error && error.code === "EAGAIN") Atomics.wait(nap, 0, 0, 1);
        else if (error && error.code !== "EINTR") return false;
      }
    }
  }

  return {
    /** The next line without its newline, or null once the server has closed the channel. */
    readLine() {
      for (;;) {
        const end = rest.indexOf(NEWLINE);
        if (end !== -1) {
          const line = rest.toString("utf8", 0, end);
          rest = rest.subarray(end + 1);
          return line;
        }
        if (!fill()) return null;
      }
    },
    writeLine(text) {
      const bytes = Buffer.from(text + "\n", "utf8");
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    },
  };
}
