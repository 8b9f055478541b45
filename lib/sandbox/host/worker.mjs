// Sandbox worker thread: boots a hardened Pyodide, loads the harness, answers {id, req} messages
// with {id, reply} where reply is the harness's JSON string (size-capped inside Python).
import { parentPort, workerData } from "node:worker_threads";
import { disableChildProcesses, lockFileSystem, scrubRealm } from "./harden.mjs";

const { wasmModule, snapshot, interruptBuffer, pythonFiles, limits, pyodideUrl } = workerData;
// Imported by absolute URL: bare-specifier resolution would probe folders the permission model denies.
const { loadPyodide } = await import(pyodideUrl);
const started = performance.now();

// Pyodide instantiates its wasm from bytes; hand it the shared module whose memory max is capped.
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
WebAssembly.instantiate = async (source, imports) =>
  source instanceof WebAssembly.Module
    ? instantiate(source, imports)
    : { instance: await instantiate(wasmModule, imports), module: wasmModule };

function discard(buffer) {
  return buffer.length; // Python's prints are captured by the harness; raw fd writes end here.
}

async function boot(useSnapshot) {
  const options = {
    jsglobals: Object.freeze(Object.create(null)), // `import js` finds an empty object
    env: { HOME: "/home/sandbox", LANG: "C.UTF-8" },
    stdin: () => null,
    stdout: () => {},
    stderr: () => {},
    checkAPIVersion: true,
  };
  if (useSnapshot) options._loadSnapshot = snapshot;
  return loadPyodide(options);
}

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
  py.setStdin({ error: true });
  py.setStdout({ write: discard });
  py.setStderr({ write: discard });
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  lockFileSystem(py);
  py.FS.mkdirTree("/sandbox");
  for (const [name, text] of Object.entries(pythonFiles)) py.FS.writeFile(`/sandbox/${name}`, text);
  py.runPython("import sys; sys.path.insert(0, '/sandbox'); import harness");
  const handle = py.pyimport("harness").handle;
  handle(JSON.stringify({ op: "configure", ...limits }));
  py.runPython("import lockdown");
  py.setInterruptBuffer(interruptBuffer);
  scrubRealm([]);
  return { handle, usedSnapshot };
}

/** A JS-level failure while Python ran: a second interrupt or a MemoryError can escape the
 * harness's own error handling, and a Pyodide fatal error makes the worker unusable. */
function failureReply(error) {
  const text = String(error && error.message ? error.message : error);
  const code = /KeyboardInterrupt/.test(text)
    ? "TIMEOUT"
    : /MemoryError|out of memory/i.test(text)
      ? "MEMORY"
      : "USER_CODE_ERROR";
  const message = text.trim().split("\n").pop().slice(0, 500);
  return JSON.stringify({ ok: false, error: { code, message } });
}

try {
  const { handle, usedSnapshot } = await start();
  parentPort.on("message", ({ id, req }) => {
    let reply;
    let fatal = false;
    try {
      reply = handle(req);
    } catch (error) {
      reply = failureReply(error);
      // Only Python exceptions leave Pyodide in a known state; a JS error here (e.g. Emscripten's
      // exit() meeting the scrubbed realm) or a fatal error means the runtime must be replaced.
      fatal =
        !(error && error.constructor && error.constructor.name === "PythonError") ||
        /fatal|already failed/i.test(String(error && error.message));
    }
    parentPort.postMessage({ id, reply, fatal });
  });
  parentPort.postMessage({ ready: true, usedSnapshot, bootMs: performance.now() - started });
} catch (error) {
  parentPort.postMessage({ bootError: String(error && error.stack ? error.stack : error).slice(0, 2000) });
}
