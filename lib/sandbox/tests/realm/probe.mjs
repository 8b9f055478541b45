// Test fixture (run by realm.test.ts under the sandbox host's Node and permission flags): boots
// Pyodide, hardens it exactly as a sandbox worker does, then acts as an attacker who somehow
// holds JavaScript references anyway (Pyodide's internal API and Module objects, the realm's
// intrinsics) and reports, per attempt, whether it was blocked. Argument: loopback port of a
// listener that must never see a connection.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { disableChildProcesses, hardenRuntime, lockRealm } from "../../host/harden.mjs";

const [port, pyodideDir, pythonDir] = process.argv.slice(2);
const results = {};
const WIN = "ESCAPED";

async function attempt(name, fn) {
  try {
    const value = await fn();
    results[name] = value === WIN ? WIN : `no effect: ${String(value).slice(0, 80)}`;
  } catch (error) {
    results[name] = `blocked: ${String(error && error.message ? error.message : error).slice(0, 120)}`;
  }
}

disableChildProcesses();
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ stdout: () => {}, stderr: () => {} });
const files = {};
for (const name of readdirSync(pythonDir))
  if (name.endsWith(".py")) files[name] = readFileSync(join(pythonDir, name), "utf8");
const handle = hardenRuntime(py, files, { max_output_bytes: 1 << 20, max_log_bytes: 1 << 16 });
const api = py._api;
const mod = py._module;
const getBuiltin = process.getBuiltinModule?.bind(process);
const stdout = process.stdout;
lockRealm(py);

await attempt("an intrinsic left unlocked", () => {
  // Everything reachable from the global object, as freezeRealm walks it: none may take a new
  // member or have one redefined (a getter, a replaced method). Only Error keeps one writable
  // member (stackTraceLimit, which Node writes).
  const seen = new Set();
  const queue = Reflect.ownKeys(globalThis).map((key) => [
    String(key),
    Object.getOwnPropertyDescriptor(globalThis, key)?.value,
  ]);
  while (queue.length > 0) {
    const [path, object] = queue.pop();
    if (object === null || (typeof object !== "object" && typeof object !== "function") || seen.has(object))
      continue;
    seen.add(object);
    if (object === globalThis) continue;
    const keys = Reflect.ownKeys(object);
    const loose = keys.find((key) => Object.getOwnPropertyDescriptor(object, key)?.configurable);
    if (Object.isExtensible(object) || loose !== undefined) {
      results["unlocked intrinsic"] = `${WIN}: ${path}${loose === undefined ? "" : ` (${String(loose)})`}`;
      return WIN;
    }
    queue.push([`${path}.[[Prototype]]`, Object.getPrototypeOf(object)]);
    for (const key of keys) {
      const d = Object.getOwnPropertyDescriptor(object, key);
      if (d)
        queue.push(
          [`${path}.${String(key)}`, d.value],
          [`${path}.get ${String(key)}`, d.get],
          [`${path}.set ${String(key)}`, d.set],
        );
    }
  }
  return `${seen.size} objects, all locked`;
});

const probeGetter = () => WIN;
await attempt("getter on Object.prototype", () => {
  Object.defineProperty(Object.prototype, "envstudioProbe", { get: probeGetter, configurable: true });
  return {}.envstudioProbe;
});
for (const [label, proto] of [
  ["Function.prototype", Function.prototype],
  ["Array.prototype", Array.prototype],
  ["Promise.prototype", Promise.prototype],
  ["Error.prototype", Error.prototype],
  ["Map.prototype", Map.prototype],
]) {
  await attempt(`getter on ${label}`, () => {
    Object.defineProperty(proto, "envstudioProbe", { get: probeGetter });
    return proto.envstudioProbe;
  });
}
await attempt("replace Array.prototype.push", () => {
  Array.prototype.push = () => WIN;
  return [].push(1);
});
await attempt("thenable on Object.prototype", async () => {
  Object.prototype.then = (resolve) => resolve(WIN);
  return await Promise.resolve({});
});
await attempt("replace Promise.prototype.then", () => {
  Promise.prototype.then = () => WIN;
  return Promise.resolve(1).then();
});
await attempt("Symbol.toPrimitive on Object.prototype", () => {
  Object.prototype[Symbol.toPrimitive] = () => WIN;
  return `${{}}`;
});
await attempt("Symbol.iterator on Array.prototype", () => {
  Array.prototype[Symbol.iterator] = function* () {
    yield WIN;
  };
  return [...[1]][0];
});
await attempt("__proto__ swap of an intrinsic", () => {
  Object.setPrototypeOf(Array.prototype, { envstudioProbe: WIN });
  return [].envstudioProbe;
});
await attempt("new global binding", () => {
  globalThis.document = { envstudioProbe: WIN };
  return globalThis.document?.envstudioProbe;
});
await attempt("replace a global (setTimeout)", () => {
  globalThis.setTimeout = () => WIN;
  return setTimeout(() => {}, 0);
});
await attempt("constructor.constructor from a plain object", () =>
  ({}).constructor.constructor("return 'ESCAPED'")(),
);
await attempt("constructor.constructor from the API object", () =>
  api.constructor.constructor("return 'ESCAPED'")(),
);
await attempt("async function constructor", () =>
  Object.getPrototypeOf(async () => {}).constructor("return 1"),
);
await attempt("process", () => globalThis.process.pid);
await attempt("getBuiltinModule(net) + connect", () => connectWith(getBuiltin("node:net")));
await attempt("import(node:net) + connect", async () => connectWith(await import("node:net")));
await attempt("UDP send (node:dgram)", () => {
  const dgram = getBuiltin("node:dgram");
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket("udp4");
    socket.on("error", reject);
    socket.send("x", Number(port), "127.0.0.1", (error) => (error ? reject(error) : resolve(WIN)));
  });
});
await attempt("fetch", async () => {
  // eslint-disable-next-line no-undef -- removed from the realm; this checks it stays gone
  await fetch(`http://127.0.0.1:${port}/`);
  return WIN;
});
await attempt("API.initializeNodeSockFS", async () => {
  await api.initializeNodeSockFS();
  return WIN;
});
await attempt("API._nodeSock.connect", async () => {
  await api._nodeSock.connect(3, "127.0.0.1", Number(port));
  return WIN;
});
await attempt("Module.SOCKFS.createSocket", () => {
  mod.SOCKFS.createSocket(2, 1, 0);
  return WIN;
});
await attempt("NODEFS mount", () => {
  mod.FS.mkdir("/host");
  mod.FS.mount(mod.FS.filesystems.NODEFS, { root: "/" }, "/host");
  return WIN;
});
await attempt("loadPackage", async () => {
  await py.loadPackage("micropip");
  return WIN;
});

function connectWith(net) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(WIN);
    });
    socket.on("error", reject);
  });
}

results["harness still answers"] = handle(JSON.stringify({ op: "ping" }));
stdout.write(JSON.stringify(results) + "\n");
