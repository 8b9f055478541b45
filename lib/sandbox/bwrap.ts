/**
 * The bubblewrap command line for one python3 harness process (see docs/sandbox.md). Only /usr
 * and the harness folder are visible, read-only; no network, pid, ipc or uts sharing; no env.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { SandboxOptions } from "./options";
import { EMPTY_ENV, PYTHON_DIR } from "./paths";

const BWRAP = "/usr/bin/bwrap";
const PRLIMIT = "/usr/bin/prlimit";
let probed: string | null | undefined;

/** Why bwrap cannot be used here (missing binary, python outside /usr, no user namespaces), or null. */
export function bwrapProblem(python: string): string | null {
  if (!existsSync(BWRAP))
    return "SANDBOX_BACKEND=bwrap but bubblewrap is not installed (apt-get install bubblewrap)";
  if (!existsSync(PRLIMIT)) return "SANDBOX_BACKEND=bwrap needs prlimit (apt-get install util-linux)";
  if (!python.startsWith("/usr/") || !existsSync(python))
    return `SANDBOX_BACKEND=bwrap needs python3 under /usr (got ${python}); set SANDBOX_PYTHON`;
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

function jailArgs(): string[] {
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
    "--ro-bind",
    PYTHON_DIR,
    "/sandbox",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
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
