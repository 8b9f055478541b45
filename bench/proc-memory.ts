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

/** CPU seconds used so far by a server: its main thread, and its whole process tree (every
 * thread, live descendants, and the descendants it has already reaped). */
export function serverCpuSeconds(pid: number): { mainThread: number; tree: number } {
  const ticks = (stat: string, fields: number[]) => {
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields.reduce((sum, i) => sum + Number(rest[i]), 0) / 100;
  };
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return null;
    }
  };
  const mainStat = read(`/proc/${pid}/task/${pid}/stat`);
  const children = new Map<string, string[]>();
  for (const p of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    const info = statOf(p);
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), p]);
  }
  let tree = 0;
  const stack = [String(pid)];
  for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
    const stat = read(`/proc/${p}/stat`);
    // utime, stime, and the reaped children's cutime, cstime (fields 14–17 of proc(5))
    if (stat) tree += ticks(stat, [11, 12, 13, 14]);
    stack.push(...(children.get(p) ?? []));
  }
  return { mainThread: mainStat ? ticks(mainStat, [11, 12]) : 0, tree };
}
