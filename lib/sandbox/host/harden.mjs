// Runs inside each sandbox worker thread, before and after Pyodide boots. Implements the
// hardening recipe of shared/research/sandbox.md §3: every step closes a measured escape route.
import cp from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const SPAWNERS = ["spawn", "exec", "execFile", "fork", "execSync", "execFileSync"];

/** Emscripten's system() calls child_process.spawnSync in Node. Returning "exit 127" instead of
 * throwing matters: a JS exception inside a Python-called import is a Pyodide fatal error. */
export function disableChildProcesses() {
  for (const name of SPAWNERS) {
    cp[name] = () => {
      throw new Error("sandbox: no child processes");
    };
  }
  cp.spawnSync = () => ({ status: 127, signal: null, output: [], stdout: "", stderr: "", pid: 0 });
  syncBuiltinESMExports();
  // --experimental-permission denies process.binding, which NODEFS.staticInit calls at boot.
  if (process.permission) {
    const original = process.binding.bind(process);
    process.binding = (name) => (name === "constants" ? { fs: fsConstants } : original(name));
  }
}

/** No host file system: MEMFS only. */
export function lockFileSystem(py) {
  const FS = py.FS;
  delete FS.filesystems.NODEFS;
  delete FS.filesystems.NODERAWFS;
  const mount = FS.mount.bind(FS);
  FS.mount = (type, opts, mountpoint) => {
    if (type !== FS.filesystems.MEMFS) throw new Error("sandbox: mount disabled");
    return mount(type, opts, mountpoint);
  };
  const denied = () => {
    throw new Error("sandbox: mount disabled");
  };
  py.mountNodeFS = denied;
  py.mountNativeFS = denied;
}

const DENY_GLOBALS = [
  "eval",
  "process",
  "require",
  "fetch",
  "WebSocket",
  "EventSource",
  "XMLHttpRequest",
  "BroadcastChannel",
  "Request",
  "Response",
  "Headers",
  "Worker",
  "navigator",
  "global",
  "SharedWorker",
  "importScripts",
];

/** Last step: JsProxy objects that survive the Python lockdown can still reach this realm, so
 * code generation and the process-wide objects must be gone from it. */
export function scrubRealm(keep) {
  const deny = () => {
    throw new EvalError("sandbox: code generation disabled");
  };
  const protos = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const proto of protos) {
    // A Proxy keeps `instanceof` working, which Pyodide needs; deleting Function breaks it.
    const safe = new Proxy(proto.constructor, { apply: deny, construct: deny });
    Object.defineProperty(proto, "constructor", { value: safe, writable: false, configurable: false });
    if (proto === Function.prototype) globalThis.Function = safe;
  }
  for (const name of DENY_GLOBALS) {
    if (keep.includes(name)) continue;
    try {
      delete globalThis[name];
    } catch {
      // non-configurable: overwritten below
    }
    if (name in globalThis) {
      Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
    }
  }
  const quiet = () => {};
  // console._stdout leads back to process.stdout, i.e. the host's protocol stream.
  globalThis.console = Object.freeze({ log: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet });
}
