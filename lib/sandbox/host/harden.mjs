// @ts-check
// Runs inside each sandbox worker thread, before and after Pyodide boots. Implements the
// hardening recipe in docs/sandbox.md (threat model): every step closes a measured escape route.
import cp from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const SPAWNERS = ["spawn", "exec", "execFile", "fork", "execSync", "execFileSync"];

/** The members of Pyodide's API object (PyodideAPI in node_modules/pyodide/pyodide.d.ts) the host
 * calls or disables, plus its private `_api` and `_module` (the Emscripten module). Typed loosely
 * where this file only replaces or deletes a member by name.
 * @typedef {object} Pyodide
 * @property {EmscriptenFS} FS
 * @property {Record<string, unknown>} _api
 * @property {Record<string, unknown> & { FS: EmscriptenFS }} _module
 * @property {(...args: never[]) => unknown} mountNodeFS
 * @property {(...args: never[]) => unknown} mountNativeFS
 * @property {(options: { error: true }) => void} setStdin
 * @property {(options: { write: (buffer: Uint8Array) => number }) => void} setStdout
 * @property {(options: { write: (buffer: Uint8Array) => number }) => void} setStderr
 * @property {(buffer: Int32Array) => void} setInterruptBuffer
 * @property {(name: string) => void} unregisterJsModule
 * @property {(code: string) => unknown} runPython
 * @property {(name: string) => unknown} pyimport a PyProxy of the module
 * @property {() => Uint8Array} makeMemorySnapshot
 */

/** The part of Emscripten's FS object the hardening touches.
 * @typedef {object} EmscriptenFS
 * @property {Record<string, unknown>} filesystems MEMFS, NODEFS, ... by name
 * @property {(type: unknown, opts: unknown, mountpoint: string) => unknown} mount
 * @property {(path: string) => void} mkdirTree
 * @property {(path: string, data: string | Uint8Array) => void} writeFile
 * @property {(path: string) => { node: MemfsNode }} lookupPath
 */

/** A MEMFS file node: its bytes are `contents` up to `usedBytes`.
 * @typedef {{ contents: Uint8Array | null, usedBytes: number }} MemfsNode
 */

/** `loadPyodide` of pyodide.mjs, with the private snapshot options the host uses.
 * @typedef {(options: {
 *   jsglobals?: object,
 *   env?: Record<string, string>,
 *   stdin?: () => string | null,
 *   stdout?: (text: string) => void,
 *   stderr?: (text: string) => void,
 *   checkAPIVersion?: boolean,
 *   _makeSnapshot?: boolean,
 *   _loadSnapshot?: Uint8Array,
 * }) => Promise<Pyodide>} LoadPyodide
 */

/** The harness's size limits (LIMITS in python/harness.py), sent with its `configure` op.
 * @typedef {{ max_output_bytes: number, max_log_bytes: number }} HarnessLimits
 */

/** The harness module (python/harness.py) as a PyProxy: `handle` takes one request JSON string
 * and returns the reply, a JSON string unless something went badly wrong. The hardened runtime's
 * Handle also takes the request as UTF-8 bytes (see hardenRuntime).
 * @typedef {(request: string | Uint8Array) => unknown} Handle
 * @typedef {{
 *   start: (path: string) => { get: (index: number) => unknown, destroy: () => void },
 *   install_lockdown: () => void,
 * }} Harness
 */

/** Where a large request's bytes are left for the harness (request_reader in harness.py). */
const REQUEST_FILE = "/run/envstudio/request";

/** Emscripten's system() calls child_process.spawnSync in Node. Returning "exit 127" instead of
 * throwing matters: a JS exception inside a Python-called import is a Pyodide fatal error. */
export function disableChildProcesses() {
  for (const name of SPAWNERS) {
    /** @type {Record<string, unknown>} */ (cp)[name] = () => {
      throw new Error("sandbox: no child processes");
    };
  }
  // Not a full SpawnSyncReturns (no Buffers): system() only reads `status`.
  cp.spawnSync = /** @type {typeof cp.spawnSync} */ (
    /** @type {unknown} */ (() => ({ status: 127, signal: null, output: [], stdout: "", stderr: "", pid: 0 }))
  );
  syncBuiltinESMExports();
  // --experimental-permission denies process.binding, which NODEFS.staticInit calls at boot.
  if (process.permission) {
    const original = /** @type {ProcessWithBinding} */ (process).binding.bind(process);
    /** @type {ProcessWithBinding} */ (process).binding = (name) =>
      name === "constants" ? { fs: fsConstants } : original(name);
  }
}

/** process.binding: deprecated, so @types/node no longer declares it.
 * @typedef {NodeJS.Process & { binding: (name: string) => unknown }} ProcessWithBinding
 */

/** No host file system: MEMFS only.
 * @param {Pyodide} py
 */
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
 * code generation and the process-wide objects must be gone from it.
 * @param {readonly string[]} keep members of DENY_GLOBALS to leave in place
 */
export function scrubRealm(keep) {
  const deny = () => {
    throw new EvalError("sandbox: code generation disabled");
  };
  /** @type {object[]} */
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
    if (proto === Function.prototype) globalThis.Function = /** @type {FunctionConstructor} */ (safe);
  }
  for (const name of DENY_GLOBALS) {
    if (keep.includes(name)) continue;
    try {
      delete (/** @type {Record<string, unknown>} */ (globalThis)[name]);
    } catch {
      // non-configurable: overwritten below
    }
    if (name in globalThis) {
      Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
    }
  }
  const quiet = () => {};
  // console._stdout leads back to process.stdout, i.e. the host's protocol stream.
  // Only the methods code is likely to call; anything else on `console` is gone.
  globalThis.console = /** @type {Console} */ (
    Object.freeze({ log: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet })
  );
}

// Members of Pyodide's runtime objects that reach the host: Node sockets (SOCKFS, the Node socket
// backend and its loader), host file systems, and loaders that read or compile more code. Nothing
// the harness needs after boot; made inert so that even a JsProxy holder cannot call them.
const API_MEMBERS = ["initializeNodeSockFS", "_nodeSock", "loadBinaryFile", "loadDynlib", "package_loader"];
const MODULE_MEMBERS = [
  "SOCKFS",
  "Sockets",
  "NODEFS",
  "NODERAWFS",
  "webSockets",
  "WS",
  "websocket",
  "getSocketFromFD",
  "asyncLoad",
  "loadDynamicLibrary",
  "loadDylibs",
  "loadWebAssemblyModule",
  "FS_preloadFile",
  "FS_createPreloadedFile",
];
const PUBLIC_MEMBERS = [
  "loadPackage",
  "loadPackagesFromImports",
  "mountNodeFS",
  "mountNativeFS",
  "registerJsModule",
];

/**
 * @param {object} owner
 * @param {string} name
 */
function disable(owner, name) {
  const off = () => {
    throw new Error(`sandbox: ${name} is disabled`);
  };
  try {
    Object.defineProperty(owner, name, {
      value: off,
      writable: false,
      configurable: false,
      enumerable: false,
    });
  } catch {
    try {
      delete (/** @type {Record<string, unknown>} */ (owner)[name]);
    } catch {
      // a non-configurable member we cannot replace: it was checked to be absent in tests
    }
  }
}

/** Makes every network, host-file and code-loading entry point of the booted runtime inert.
 * @param {Pyodide} py
 */
export function disablePyodideLoaders(py) {
  for (const name of API_MEMBERS) disable(py._api, name);
  for (const name of MODULE_MEMBERS) disable(py._module, name);
  for (const name of PUBLIC_MEMBERS) disable(py, name);
  const filesystems = py._module.FS.filesystems;
  for (const name of Object.keys(filesystems)) if (name !== "MEMFS") delete filesystems[name];
  Object.freeze(filesystems);
}

/** The realm's intrinsics: the global constructors and namespaces, plus the prototypes only an
 * instance leads to (iterators, generators, async functions, typed arrays).
 * @returns {unknown[]}
 */
function intrinsicRoots() {
  /** @type {unknown[]} */
  const roots = [];
  // Symbol keys too: Node keeps undici's fetch dispatcher under Symbol(undici.globalDispatcher.1).
  for (const name of Reflect.ownKeys(globalThis)) {
    if (name === "globalThis") continue;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    const value = descriptor && "value" in descriptor ? descriptor.value : undefined;
    if (
      (typeof value === "function" || (typeof value === "object" && value !== null)) &&
      value !== globalThis
    )
      roots.push(value);
  }
  const proto = Object.getPrototypeOf;
  function* gen() {}
  async function* agen() {}
  roots.push(
    proto(function* () {}),
    proto(async function () {}),
    proto(async function* () {}),
    proto(gen()),
    proto(agen()),
    proto(Int8Array),
    proto([][Symbol.iterator]()),
    proto(new Map()[Symbol.iterator]()),
    proto(new Set()[Symbol.iterator]()),
    proto(""[Symbol.iterator]()),
    proto(/a/[Symbol.matchAll]("")),
    proto(proto([][Symbol.iterator]())),
  );
  return roots;
}

// Written by Node or Pyodide after boot; everything else is frozen.
/** @type {Set<string | symbol>} */
const STAY_WRITABLE = new Set(["stackTraceLimit"]);

/** @param {object} object */
function freezeOne(object) {
  // Object.freeze keeps V8's fast layout of the object. Locking each property one by one instead
  // turned hot prototypes (String.prototype) into slow dictionaries: Pyodide's FFI then took ~50 %
  // longer on a large request (a 740 KB check batch, 15.5 -> 24 ms).
  // Only where it locks exactly what the loop below would: it leaves non-configurable writable
  // members writable (Node's own code assigns some after boot), Object.freeze would not.
  const keys = Reflect.ownKeys(object);
  const same = keys.every((key) => {
    const d = Object.getOwnPropertyDescriptor(object, key);
    return !STAY_WRITABLE.has(key) && (!d || d.configurable || !("value" in d) || !d.writable);
  });
  if (same) {
    Object.freeze(object);
    return;
  }
  for (const key of Reflect.ownKeys(object)) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (!descriptor || !descriptor.configurable) continue;
    /** @type {PropertyDescriptor} */
    const locked = { configurable: false };
    if ("value" in descriptor && !STAY_WRITABLE.has(key)) locked.writable = false;
    Object.defineProperty(object, key, locked);
  }
  Object.preventExtensions(object);
}

/** Objects kept on the global object under symbols are Node's internals, never intrinsics (e.g.
 * undici's dispatcher, whose classes Node itself must still be able to instantiate): dropped
 * rather than frozen. Non-configurable ones are emptied. */
function dropSymbolGlobals() {
  for (const key of Object.getOwnPropertySymbols(globalThis)) {
    const d = Object.getOwnPropertyDescriptor(globalThis, key);
    if (
      !d ||
      !("value" in d) ||
      d.value === null ||
      (typeof d.value !== "object" && typeof d.value !== "function")
    )
      continue;
    if (d.configurable) delete (/** @type {Record<symbol, unknown>} */ (globalThis)[key]);
    else if (d.writable) /** @type {Record<symbol, unknown>} */ (globalThis)[key] = undefined;
  }
}

/** Freezes every object reachable from `queue` (prototypes, values, getters, setters) not yet in
 * `seen`; the global object is only walked through, not frozen (see freezeRealm).
 * @param {unknown[]} queue
 * @param {Set<unknown>} seen
 */
function freezeReachable(queue, seen) {
  while (queue.length > 0) {
    const object = queue.pop();
    if (object === null || (typeof object !== "object" && typeof object !== "function") || seen.has(object))
      continue;
    seen.add(object);
    if (object === globalThis) continue;
    queue.push(Object.getPrototypeOf(object));
    for (const key of Reflect.ownKeys(object)) {
      const d = Object.getOwnPropertyDescriptor(object, key);
      if (!d) continue;
      queue.push(d.value, d.get, d.set);
    }
    try {
      freezeOne(object);
    } catch {
      // exotic objects (e.g. module namespaces) are already immutable
    }
  }
}

/** Freezes every intrinsic reachable from the global object: nothing can add a getter to a
 * prototype (which Pyodide's own code would then call with its internal objects as `this`),
 * replace a builtin method with a Python callback, or turn an object into a thenable. The global
 * object itself keeps its bindings fixed and takes no new ones.
 * @returns {number} how many objects were frozen (plus the global object)
 */
export function freezeRealm() {
  /** @type {Set<unknown>} */
  const seen = new Set();
  // Reading a lazy global's descriptor can load the module behind it, which may add globals
  // (Node 26 adds fetch's undici dispatcher under a symbol): walk again until none is added.
  for (let globals = -1; Reflect.ownKeys(globalThis).length !== globals;) {
    globals = Reflect.ownKeys(globalThis).length;
    dropSymbolGlobals();
    freezeReachable(intrinsicRoots(), seen);
  }
  for (const key of Reflect.ownKeys(globalThis)) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
    if (!descriptor || !descriptor.configurable) continue;
    Object.defineProperty(
      globalThis,
      key,
      "value" in descriptor ? { configurable: false, writable: false } : { configurable: false },
    );
  }
  Object.preventExtensions(globalThis);
  return seen.size;
}

/** Everything between boot and the first user code, Python side: no stdin, no host file systems,
 * the JS modules unregistered, the harness loaded and configured, then the Python lockdown.
 * Returns the harness's `handle`.
 * @param {Pyodide} py
 * @param {Record<string, string>} pythonFiles the harness's .py files by name
 * @param {HarnessLimits} limits
 * @returns {Handle}
 */
export function hardenRuntime(py, pythonFiles, limits) {
  py.setStdin({ error: true });
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  lockFileSystem(py);
  py.FS.mkdirTree("/sandbox");
  for (const [name, text] of Object.entries(pythonFiles)) py.FS.writeFile(`/sandbox/${name}`, text);
  py.runPython("import sys; sys.path.insert(0, '/sandbox'); import harness");
  const harness = /** @type {Harness} */ (py.pyimport("harness"));
  // Bytes reach Python through a MEMFS file whose node the worker fills directly: a JS string
  // would be converted character by character (~7 ms per 740 KB), the bytes are copied once.
  py.FS.mkdirTree("/run/envstudio");
  py.FS.writeFile(REQUEST_FILE, new Uint8Array(0));
  const node = py.FS.lookupPath(REQUEST_FILE).node;
  // The handler holds the episodes in its closure: only this worker holds the handler.
  const started = harness.start(REQUEST_FILE);
  const handleText = /** @type {(request: string) => unknown} */ (started.get(0));
  const handleFile = /** @type {(size: number) => unknown} */ (started.get(1));
  started.destroy();
  handleText(JSON.stringify({ op: "configure", ...limits }));
  harness.install_lockdown(); // also seals the harness: its modules leave sys.modules
  return (request) => {
    if (typeof request === "string") return handleText(request);
    node.contents = request;
    node.usedBytes = request.length;
    try {
      return handleFile(request.length);
    } finally {
      node.contents = new Uint8Array(0);
      node.usedBytes = 0;
    }
  };
}

/** The JS side, last before user code: loaders inert, realm scrubbed, intrinsics frozen.
 * @param {Pyodide} py
 */
export function lockRealm(py) {
  disablePyodideLoaders(py);
  scrubRealm([]);
  freezeRealm(); // last: nothing after this may change an intrinsic
}
