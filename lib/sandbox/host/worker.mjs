// @ts-check
// Sandbox worker thread: boots a hardened Pyodide and loads the harness. When the host leases it
// ({lease} message), it serves that lease's calls straight from its slot channel (see
// channel.mjs) until the server sends `<lease> release`; each reply is the harness's JSON string
// (size-capped inside Python).
import { parentPort, workerData } from "node:worker_threads";
import { Channel } from "./channel.mjs";
import { disableChildProcesses, hardenRuntime, lockRealm } from "./harden.mjs";
import { BUSY, IDLE, REPLYING, failureLine, writeLine } from "./slot-protocol.mjs";

/** @import { MessagePort } from "node:worker_threads" */
/** @import { Handle, LoadPyodide, Pyodide } from "./harden.mjs" */
/** @import { LeaseMessage, WorkerData, WorkerMessage } from "./slot-protocol.mjs" */

/** What the worker knows of the lease it serves; `early` holds lines for a newer lease that came
 * before its {lease} message.
 * @typedef {{ lease: number | null, newest: number, early: Buffer[] }} Session
 */

const SPACE = 0x20;
/** Requests from this size on reach Python as bytes (hardenRuntime): no JS-string conversion. */
const BYTES_FROM = 16 * 1024;

// workerData is what SandboxWorker passes. (The casts of parentPort below: it is null only on a
// main thread, and this module only ever runs as a worker.)
const { wasmModule, snapshot, interruptBuffer, pythonFiles, limits, pyodideUrl } = /** @type {WorkerData} */ (
  workerData
);
const { channelFd, callState, callDeadline, spinners, maxSpinners, spinning } = /** @type {WorkerData} */ (
  workerData
);
const MAX_EARLY_LINES = 16; // a lease has at most one call in flight, then its release
// Imported by absolute URL: bare-specifier resolution would probe folders the permission model denies.
const { loadPyodide } = /** @type {{ loadPyodide: LoadPyodide }} */ (await import(pyodideUrl));
const started = performance.now();

// Pyodide instantiates its wasm from bytes; hand it the shared module whose memory max is capped.
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
// (Both overloads: a Module gives an Instance, bytes give { instance, module }.)
WebAssembly.instantiate = /** @type {typeof WebAssembly.instantiate} */ (
  /**
   * @param {BufferSource | WebAssembly.Module} source
   * @param {WebAssembly.Imports} [imports]
   */
  async (source, imports) =>
    source instanceof WebAssembly.Module
      ? instantiate(source, imports)
      : { instance: await instantiate(wasmModule, imports), module: wasmModule }
);

/**
 * @param {Uint8Array} buffer
 * @returns {number} bytes "written"
 */
function discard(buffer) {
  return buffer.length; // Python's prints are captured by the harness; raw fd writes end here.
}

/**
 * @param {boolean} useSnapshot
 * @returns {Promise<Pyodide>}
 */
async function boot(useSnapshot) {
  /** @type {Parameters<LoadPyodide>[0]} */
  const options = {
    jsglobals: Object.freeze(Object.create(null)), // `import js` finds an empty object
    env: { HOME: "/home/sandbox", LANG: "C.UTF-8" },
    stdin: () => null,
    stdout: () => {},
    stderr: () => {},
    checkAPIVersion: true,
  };
  if (useSnapshot) options._loadSnapshot = /** @type {Uint8Array} */ (snapshot); // only when there is one
  return loadPyodide(options);
}

/** @returns {Promise<{ handle: Handle, usedSnapshot: boolean }>} */
async function start() {
  disableChildProcesses();
  let usedSnapshot = Boolean(snapshot);
  let py;
  try {
    py = await boot(usedSnapshot);
  } catch (error) {
    if (!usedSnapshot) throw error;
    usedSnapshot = false; // a stale or broken snapshot must not take the sandbox down
    py = await boot(false);
  }
  py.setStdout({ write: discard });
  py.setStderr({ write: discard });
  const handle = hardenRuntime(py, pythonFiles, limits);
  py.setInterruptBuffer(interruptBuffer);
  lockRealm(py);
  return { handle, usedSnapshot };
}

/** A JS-level failure while Python ran: a second interrupt or a MemoryError can escape the
 * harness's own error handling, and a Pyodide fatal error makes the worker unusable.
 * @param {unknown} error anything thrown; its `message` if it has one
 * @returns {string}
 */
function failureReply(error) {
  const text = String(
    error && /** @type {Error} */ (error).message ? /** @type {Error} */ (error).message : error,
  );
  const code = /KeyboardInterrupt/.test(text)
    ? "TIMEOUT"
    : /MemoryError|out of memory/i.test(text)
      ? "MEMORY"
      : "USER_CODE_ERROR";
  const message = /** @type {string} */ (text.trim().split("\n").pop()).slice(0, 500); // split gives >= 1 part
  return JSON.stringify({ ok: false, error: { code, message } });
}

/** Harness replies are single-line JSON objects; anything else must not reach the server.
 * @param {unknown} reply
 * @returns {string}
 */
function checked(reply) {
  if (typeof reply === "string" && reply[0] === "{" && !reply.includes("\n")) return reply;
  return failureLine("SANDBOX_UNAVAILABLE", "malformed reply from the sandbox worker", true);
}

/**
 * @param {Handle} handle
 * @param {string | Uint8Array} request
 * @returns {{ reply: unknown, fatal: boolean }}
 */
function runCall(handle, request) {
  try {
    return { reply: handle(request), fatal: false };
  } catch (error) {
    const reply = failureReply(error);
    // Only Python exceptions leave Pyodide in a known state; a JS error here (e.g. Emscripten's
    // exit() meeting the scrubbed realm) or a fatal error means the runtime must be replaced.
    const fatal =
      !(error && error.constructor && error.constructor.name === "PythonError") ||
      /fatal|already failed/i.test(String(error && /** @type {Error} */ (error).message));
    if (!fatal) return { reply, fatal };
    const detail = JSON.parse(reply).error?.message ?? "unknown failure";
    return { reply: failureLine("USER_CODE_ERROR", `the Python runtime failed: ${detail}`, true), fatal };
  }
}

/** Routes one line from the slot channel. Lease ids grow, so a line for an older lease is stale
 * (e.g. the release of a worker that died on this slot) and a line for a newer one arrived
 * before its {lease} message: it waits for it.
 * @param {Handle} handle
 * @param {Session} session
 * @param {Buffer} line
 */
function routeLine(handle, session, line) {
  const space = line.indexOf(SPACE);
  const lease = Number(line.toString("latin1", 0, space));
  if (lease === session.lease) return serveLine(handle, session, line.subarray(space + 1));
  if (lease > session.newest) {
    session.early.push(line);
    if (session.early.length > MAX_EARLY_LINES) session.early.shift();
  }
}

/**
 * @param {Handle} handle
 * @param {Session} session
 * @param {number} lease
 */
function startLease(handle, session, lease) {
  session.lease = lease;
  session.newest = Math.max(session.newest, lease);
  const early = session.early;
  session.early = [];
  for (const line of early) routeLine(handle, session, line); // this lease's run; newer ones wait again
}

/** Runs one call (or the release) of the current lease.
 * @param {Handle} handle
 * @param {Session} session
 * @param {Buffer} body
 */
function serveLine(handle, session, body) {
  if (body.length === 7 && body.toString("latin1") === "release") {
    session.lease = null;
    return;
  }
  const space = body.indexOf(SPACE);
  const timeoutMs = Number(body.toString("latin1", 0, space));
  const request = body.subarray(space + 1);
  Atomics.store(interruptBuffer, 0, 0);
  callDeadline[0] = Date.now() + (Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 2000);
  Atomics.store(callState, 0, BUSY); // publishes the deadline to the host's watchdog
  const { reply, fatal } = runCall(handle, request.length >= BYTES_FROM ? request : request.toString("utf8"));
  // The host may have taken the call over (deadline passed its grace): it answers, not us.
  if (Atomics.compareExchange(callState, 0, BUSY, REPLYING) !== BUSY) return;
  writeLine(channelFd, checked(reply));
  Atomics.store(callState, 0, IDLE);
  if (fatal)
    /** @type {MessagePort} */ (parentPort).postMessage(/** @satisfies {WorkerMessage} */ ({ fatal: true }));
}

try {
  const { handle, usedSnapshot } = await start();
  /** @type {Session} */
  const session = { lease: null, newest: 0, early: [] };
  const channel = new Channel(
    { fd: channelFd, spinners, maxSpinners, spinning },
    (line) => routeLine(handle, session, line),
    () => session.lease !== null,
  );
  /** @type {MessagePort} */ (parentPort).on("message", (/** @type {LeaseMessage} */ message) => {
    startLease(handle, session, message.lease);
    // Until its release line, this thread only reads its slot: the host sends nothing else.
    if (!channel.serve()) session.lease = null; // the server closed the channel
  });
  /** @type {MessagePort} */ (parentPort).postMessage(
    /** @satisfies {WorkerMessage} */ ({ ready: true, usedSnapshot, bootMs: performance.now() - started }),
  );
} catch (error) {
  /** @type {MessagePort} */ (parentPort).postMessage(
    /** @satisfies {WorkerMessage} */ ({
      bootError: String(
        error && /** @type {Error} */ (error).stack ? /** @type {Error} */ (error).stack : error,
      ).slice(0, 2000),
    }),
  );
}
