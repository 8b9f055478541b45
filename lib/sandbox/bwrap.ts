/**
 * bubblewrap command lines: one python3 harness process per episode (bwrap backend), and
 * optionally the Pyodide sandbox host. Only /usr and the named folders are visible, read-only;
 * no network, pid, ipc or uts sharing; no env. See docs/sandbox.md.
 */
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { existsSync } from "node:fs";
import type { SandboxOptions } from "./options";
import { EMPTY_ENV, PYTHON_DIR } from "./paths";

const BWRAP = "/usr/bin/bwrap";
const PRLIMIT = "/usr/bin/prlimit";
let probed: string | null | undefined;

/** Why bubblewrap cannot be used on this host (not installed, no user namespaces), or null. */
export function bwrapUnavailable(): string | null {
  if (!existsSync(BWRAP)) return "bubblewrap is not installed (apt-get install bubblewrap)";
  if (probed === undefined) {
    try {
      execFileSync(BWRAP, [...jailArgs(), "--", "/usr/bin/true"], {
        env: EMPTY_ENV,
        stdio: "pipe",
        timeout: 10_000,
      });
      probed = null;
    } catch (error) {
      probed = `bubblewrap cannot create namespaces on this host: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`;
    }
  }
  return probed;
}

/** Why the bwrap backend cannot run (see bwrapUnavailable, plus prlimit and python), or null. */
export function bwrapProblem(python: string): string | null {
  const unavailable = bwrapUnavailable();
  if (unavailable) return `SANDBOX_BACKEND=bwrap: ${unavailable}`;
  if (!existsSync(PRLIMIT)) return "SANDBOX_BACKEND=bwrap needs prlimit (apt-get install util-linux)";
  if (!python.startsWith("/usr/") || !existsSync(python))
    return `SANDBOX_BACKEND=bwrap needs python3 under /usr (got ${python}); set SANDBOX_PYTHON`;
  return null;
}

/** `binds`: read-only [source, destination] pairs; missing sources are skipped. */
function jailArgs(binds: [string, string][] = [[PYTHON_DIR, "/sandbox"]]): string[] {
  return [
    "--unshare-all", // user, ipc, pid, net, uts, cgroup: no network interfaces but loopback-less lo
    "--die-with-parent",
    "--new-session",
    "--uid",
    "65534",
    "--gid",
    "65534",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--symlink",
    "usr/bin",
    "/bin",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    // after the tmpfs, so a cache dir under /tmp is visible
    ...binds.flatMap(([source, destination]) => ["--ro-bind-try", source, destination]),
    "--remount-ro",
    "/",
    "--clearenv",
    "--setenv",
    "HOME",
    "/tmp",
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--chdir",
    "/tmp",
    "--cap-drop",
    "ALL",
  ];
}

/** prlimit caps address space (MemoryError in Python) and CPU seconds (a backstop for the
 * wall-clock deadline), and they are inherited by everything inside the jail. */
export function bwrapCommand(options: SandboxOptions, pythonArgs: string[]): string[] {
  const bytes = options.memoryMiB * 1024 * 1024;
  const cpuSeconds = Math.ceil((options.loadTimeoutMs + options.checkTimeoutMs) / 1000) * 20;
  return [
    PRLIMIT,
    `--as=${bytes}`,
    `--cpu=${cpuSeconds}`,
    `--nofile=64`,
    "--",
    BWRAP,
    ...jailArgs(),
    "--",
    options.python,
    ...pythonArgs,
  ];
}

/** Whether to jail the Pyodide sandbox host: always for "on" (failing loudly), when possible for "auto". */
export function shouldJailHost(mode: "auto" | "on" | "off"): boolean {
  if (mode === "off") return false;
  const problem = bwrapUnavailable();
  if (problem && mode === "on") throw new Error(`SANDBOX_HOST_BWRAP=on: ${problem}`);
  return problem === null;
}

/** The Pyodide sandbox host inside a jail: same paths, read-only, no network. A node outside /usr
 * (the npm-installed one) is bound read-only at its own path with its package folder. */
export function hostBwrapCommand(node: string, nodeArgs: string[], readDirs: string[]): string[] {
  const nodeDir = node.startsWith("/usr/") ? [] : [dirname(dirname(node))];
  const binds = [...nodeDir, ...readDirs].map((dir): [string, string] => [dir, dir]); // same paths as outside
  return [BWRAP, ...jailArgs(binds), "--", node, ...nodeArgs];
}
