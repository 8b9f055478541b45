// Shared by the host's main thread and its workers: the per-call state word each worker
// publishes in shared memory, the failure line written on a worker's behalf, and whole-line
// writes on a slot socket.
//
// Slot channel lines, server -> worker: `<lease> <timeoutMs> <harness request JSON>` or
// `<lease> release`; worker -> server: the harness reply JSON, or a failureLine().
import { writeSync } from "node:fs";

export const IDLE = 0;
export const BUSY = 1; // a call is running; its deadline is published
export const REPLYING = 2; // the worker is writing its reply
export const KILLED = 3; // the host took the call over (deadline or crash) and answers it

export const FIRST_SLOT_FD = 3;

/** A failure the harness itself could not report (timeout kill, crash, broken runtime). */
export function failureLine(code, message, terminated, retryable = false) {
  return JSON.stringify({ host_error: { code, message, retryable }, terminated });
}

const nap = new Int32Array(new SharedArrayBuffer(4));

/** Writes one whole line. The socket is blocking in the host, so writeSync waits for the server
 * to drain a large reply; EAGAIN is still handled in case a descriptor is non-blocking. */
export function writeLine(fd, text) {
  const bytes = Buffer.from(text + "\n", "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error && error.code === "EAGAIN") Atomics.wait(nap, 0, 0, 0.1);
      else throw error;
    }
  }
}
