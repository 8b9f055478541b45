/** Shared helpers for benchmarks: result files, RSS sampling, percentiles. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export function writeResult(name: string, metrics: Record<string, number>, targets: Record<string, string>) {
  const dir = path.join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ name, metrics, targets }, null, 2) + "\n");
  console.log(JSON.stringify({ name, metrics, targets }, null, 2));
}

/** Samples process RSS every 20 ms; returns a stop() that gives the peak in MB. */
export function sampleRss(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(timer);
    return Math.round((Math.max(peak, process.memoryUsage().rss) / 1024 / 1024) * 10) / 10;
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
