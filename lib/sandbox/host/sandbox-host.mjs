// @ts-check
// The sandbox host: a separate Node process (never the Next.js server) that owns the Pyodide
// worker pool. Started by lib/sandbox/pyodide-backend.ts with an empty environment and
//   --experimental-permission --allow-fs-read=<pyodide, host, python, cache dirs> --allow-worker
//   --disallow-code-generation-from-strings
// Control protocol: JSON lines. stdin: {id, type: "lease"|"release"|"stats", ...}; stdout:
// {type: "ready"} once, {type: "lost", lease} when a leased worker dies between calls, and
// {id, ok: true, ...} or {id, ok: false, error} per request. Calls do not use this channel: a
// lease names a slot, and the server talks to that slot's worker over fd 3 + slot (channel.mjs):
// the leased worker reads its calls there and replies on it directly.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { Pool } from "./pool.mjs";
import { capWasmMemory } from "./wasm-cap.mjs";

/** The host's config, one JSON argument (built by lib/sandbox/host-process.ts).
 * @typedef {object} HostConfig
 * @property {string} pyodideDir
 * @property {string} pythonDir the harness's .py files
 * @property {string | null} snapshotPath where the snapshot builder leaves its file, if snapshots are on
 * @property {string | null} snapshotSha256 the digest the server computed from the checked file
 * @property {number} memoryMiB each worker's wasm memory cap
 * @property {import("./harden.mjs").HarnessLimits} limits
 * @property {import("./pool.mjs").PoolConfig} pool
 */

/** A control line from the server: HostRequestSchema (lib/sandbox/sandbox.schema.ts) plus its
 * id; each type carries only its own fields.
 * @typedef {object} ControlRequest
 * @property {number} id
 * @property {string} type "lease", "release", "stats" or "snapshot"
 * @property {string} [sha256] snapshot
 * @property {string | null} [key] lease
 * @property {number} [waitMs] lease
 * @property {boolean} [checks] lease: for a check run
 * @property {number} [lease] release
 * @property {boolean} [recycle] release
 * @property {unknown} [weight] release
 */

const config = /** @type {HostConfig} */ (JSON.parse(process.argv[2] ?? "{}"));
/** @type {{ bytes: Uint8Array | null, bad: boolean, sha256: string | null }} */
const snapshotState = { bytes: null, bad: false, sha256: config.snapshotSha256 ?? null };

/** The snapshot, once the server has checked its file and named its digest (at start, or by a
 * "snapshot" message when the builder finishes later): booted from only if the bytes read here
 * have that digest, so a file swapped after the check is never run. Shared memory: 31 MB is not
 * copied into every worker.
 * @returns {Uint8Array | null}
 */
function getSnapshot() {
  if (snapshotState.bytes || snapshotState.bad || !config.snapshotPath || !snapshotState.sha256)
    return snapshotState.bytes;
  if (!existsSync(config.snapshotPath)) return null;
  try {
    const file = readFileSync(config.snapshotPath);
    if (createHash("sha256").update(file).digest("hex") !== snapshotState.sha256) {
      snapshotState.bad = true;
      process.stderr.write("sandbox host: the snapshot's bytes do not match the checked digest; not used\n");
      return null;
    }
    const shared = new Uint8Array(new SharedArrayBuffer(file.byteLength));
    shared.set(file);
    snapshotState.bytes = shared;
  } catch {
    snapshotState.bad = true;
  }
  return snapshotState.bytes;
}

/**
 * @param {{ usedSnapshot: boolean }} info
 * @param {boolean} snapshotGiven
 */
function onBoot(info, snapshotGiven) {
  if (snapshotGiven && !info.usedSnapshot) {
    snapshotState.bad = true; // the worker fell back to a normal boot: stop offering it
    snapshotState.bytes = null;
  }
}

/**
 * @param {string} dir
 * @returns {Record<string, string>} file name -> source
 */
function readPythonFiles(dir) {
  /** @type {Record<string, string>} */
  const files = {};
  for (const name of readdirSync(dir))
    if (name.endsWith(".py")) files[name] = readFileSync(join(dir, name), "utf8");
  return files;
}

/** @param {string} line */
function send(line) {
  process.stdout.write(line + "\n");
}

/**
 * @param {number} id
 * @param {Record<string, unknown>} body
 */
function reply(id, body) {
  send(JSON.stringify({ id, ...body }));
}

/**
 * @param {Pool} pool
 * @param {ControlRequest} message
 */
function dispatch(pool, message) {
  const { id, type } = message;
  if (type === "lease") {
    pool.lease(message.key ?? null, message.waitMs ?? 60000, message.checks === true).then(
      ({ lease, slot }) => reply(id, { ok: true, lease, slot }),
      (error) => reply(id, { ok: false, error }),
    );
  } else if (type === "release") {
    const weight = typeof message.weight === "number" && message.weight > 0 ? message.weight : 1;
    // A release always names its lease; an unknown (or missing) one is ignored by the pool.
    pool.release(/** @type {number} */ (message.lease), Boolean(message.recycle), weight);
    reply(id, { ok: true });
  } else if (type === "snapshot") {
    if (!snapshotState.sha256 && typeof message.sha256 === "string") snapshotState.sha256 = message.sha256;
    reply(id, { ok: true });
  } else if (type === "stats") {
    const mem = process.memoryUsage();
    reply(id, { ok: true, stats: { ...pool.stats(), rss: mem.rss, snapshot: Boolean(snapshotState.bytes) } });
  } else {
    reply(id, {
      ok: false,
      error: { code: "INVALID_REQUEST", message: `unknown message type ${type}`, retryable: false },
    });
  }
}

async function main() {
  const wasmBytes = capWasmMemory(
    readFileSync(join(config.pyodideDir, "pyodide.asm.wasm")),
    config.memoryMiB,
  );
  /** @type {import("./pool.mjs").HostShared} */
  const shared = {
    workerUrl: new URL("./worker.mjs", import.meta.url),
    pyodideUrl: pathToFileURL(join(config.pyodideDir, "pyodide.mjs")).href,
    wasmModule: await WebAssembly.compile(wasmBytes),
    pythonFiles: readPythonFiles(config.pythonDir),
    limits: config.limits,
    getSnapshot,
    onBoot,
    onLeaseLost: (lease) => send(JSON.stringify({ type: "lost", lease })),
    // How many leased workers may spin for their next call at once (see channel.mjs); cores - 1:
    // on one core a spinning worker would only keep the server from sending the call.
    spinners: new Int32Array(new SharedArrayBuffer(4)),
    maxSpinners: availableParallelism() - 1,
  };
  const pool = new Pool(config.pool, shared);
  pool.start();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return; // the server only sends JSON; anything else is noise
    }
    try {
      dispatch(pool, message);
    } catch (error) {
      process.stderr.write(`sandbox-host: ${error}\n`);
    }
  });
  // stdin closes when the server goes away: never outlive it.
  lines.on("close", () => void pool.close().finally(() => process.exit(0)));
  send(JSON.stringify({ type: "ready" }));
}

main().catch((error) => {
  process.stderr.write(`sandbox-host: failed to start: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
