// @ts-check
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

/** What the host hands a worker thread (its `workerData`); the typed arrays share memory.
 * @typedef {object} WorkerData
 * @property {WebAssembly.Module} wasmModule Pyodide's module, its memory maximum capped (wasm-cap.mjs)
 * @property {Uint8Array | null} snapshot a memory snapshot to boot from, if one is cached
 * @property {string} pyodideUrl file: URL of pyodide.mjs
 * @property {Int32Array} interruptBuffer Pyodide's interrupt flag: the host stores SIGINT in it
 * @property {Record<string, string>} pythonFiles the harness's .py files by name
 * @property {import("./harden.mjs").HarnessLimits} limits
 * @property {number} channelFd the slot socket, FIRST_SLOT_FD + slot
 * @property {Int32Array} callState IDLE, BUSY, REPLYING or KILLED
 * @property {Float64Array} callDeadline the running call's deadline (ms since the epoch)
 * @property {Int32Array} spinners how many workers spin for their next call right now
 * @property {number} maxSpinners
 * @property {Int32Array} spinning 1 while this worker holds a spin permit
 */

/** Worker -> host messages on the thread's port. Every variant names the others' keys as absent,
 * so the host can test `message.ready`, then `message.bootError`, then `message.fatal`.
 * @typedef {{ ready: true, usedSnapshot: boolean, bootMs: number, bootError?: undefined, fatal?: undefined }} ReadyMessage
 * @typedef {ReadyMessage
 *   | { ready?: undefined, bootError: string, fatal?: undefined }
 *   | { ready?: undefined, bootError?: undefined, fatal: true }} WorkerMessage
 */

/** Host -> worker: serve this lease's calls from the slot channel.
 * @typedef {{ lease: number }} LeaseMessage
 */

/** A failure the harness itself could not report (timeout kill, crash, broken runtime).
 * @param {string} code
 * @param {string} message
 * @param {boolean} terminated
 * @param {boolean} [retryable]
 * @returns {string}
 */
export function failureLine(code, message, terminated, retryable = false) {
  return JSON.stringify({ host_error: { code, message, retryable }, terminated });
}

const nap = new Int32Array(new SharedArrayBuffer(4));

/** Writes one whole line. The socket is blocking in the host, so writeSync waits for the server
 * to drain a large reply; EAGAIN is still handled in case a descriptor is non-blocking.
 * @param {number} fd
 * @param {string} text
 */
export function writeLine(fd, text) {
  const bytes = Buffer.from(text + "\n", "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error && /** @type {NodeJS.ErrnoException} */ (error).code === "EAGAIN")
        Atomics.wait(nap, 0, 0, 0.1);
      else throw error;
    }
  }
}
