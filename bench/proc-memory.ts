/** Memory and CPU time of benchmarked processes, read from Linux /proc. */
import { readFileSync, readdirSync } from "node:fs";

type ProcStat = { ppid: string; comm: string; cpuSeconds: number };

/** /proc/<pid>/stat: parent, command name, and CPU seconds (user + system; /proc counts in
 * USER_HZ ticks, 100 per second on Linux). */
function statOf(pid: string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    return { ppid: fields[1] ?? "", comm, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

function rssOf(pid: string): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Largest RSS among python3 descendants (the leased harness process while an episode runs). */
export function pythonRssBytes(): number {
  const root = String(process.pid);
  const procs = new Map<string, ProcStat>();
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    const info = statOf(pid);
    if (info) procs.set(pid, info);
  }
  const isDescendant = (pid: string): boolean => {
    for (let cur = procs.get(pid)?.ppid, hops = 0; cur && hops < 20; cur = procs.get(cur)?.ppid, hops++)
      if (cur === root) return true;
    return false;
  };
  let max = 0;
  for (const [pid, info] of procs)
    if (info.comm.startsWith("python3") && isDescendant(pid)) max = Math.max(max, rssOf(pid));
  return max;
}

function pssOf(pid: string): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match?.[1] ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Memory of a process and all its descendants, as PSS (shared pages split between sharers, so
 * N python3 processes that share libpython are not counted N times, as a sum of RSS would). */
export function treePssBytes(rootPid: number): number {
  const children = new Map<string, string[]>();
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    const info = statOf(pid);
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  let total = 0;
  const stack = [String(rootPid)];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    total += pssOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** CPU seconds used so far by each direct child of `pid`, e.g. a uvicorn supervisor's workers. */
export function childCpuSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const child of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    const info = statOf(child);
    if (info?.ppid === String(pid)) out.set(child, info.cpuSeconds);
  }
  return out;
}

/** CPU seconds a process's main thread has used so far (its task of the same id). */
export function mainThreadCpuSeconds(pid: number): number {
  return statOf(`${pid}/task/${pid}`)?.cpuSeconds ?? 0;
}

/**
 * CPU seconds the whole machine has been busy so far (/proc/stat: user, nice, system, irq,
 * softirq, steal). Less the load generator's own, it is the server's share, kernel work for its
 * sockets included. Summing the server's process tree instead loses the CPU of sandbox processes
 * that exit between two readings (a bwrap jail's processes are reaped inside its own PID
 * namespace, and their time reaches no ancestor that outlives them).
 */
export function machineBusyCpuSeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100;
}
