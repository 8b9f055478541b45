/**
 * `npm run bench -- scale`: every list, search, review-queue, dataset and dashboard page at
 * 100,000 environments and 1,000,000 scenarios, and a 100,000-scenario export from the database.
 *
 * Seeds a scratch database with bulk SQL (bench/scale/seed.ts), then times each page's server
 * calls (bench/scale/pages.ts) warm, p50/p95 over SCALE_RUNS runs. Baseline in the same run: the
 * same pages on a second scratch database at SCALE_BASELINE_ENVS environments (10,000, where the
 * dashboard was first measured), which shows what grows with the corpus. The export runs in a
 * child process (bench/scale/export-child.ts) so its peak RSS is its own.
 * Knobs: SCALE_ENVS (100000), SCALE_PER_ENV (10), SCALE_CHECKS (2), SCALE_DATASET_ITEMS (100000),
 * SCALE_ROLLOUTS (2 per dataset item), SCALE_RUNS (20), SCALE_PREVIEW_RUNS (3),
 * SCALE_BASELINE_ENVS (10000; 0 skips it), SCALE_PAGES (comma-separated names), SCALE_KEEP_DB=1
 * (prints the URL), SCALE_DATABASE_URL (time the pages on a kept database, seeding nothing).
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 */
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { createDb, type Db } from "../lib/db";
import { percentile, round, writeResult } from "./bench-util";
import { scratchDatabase } from "./pipeline/setup";
import { PAGES, type Page } from "./scale/pages";
import { type ScaleSizes, seedScale } from "./scale/seed";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SIZES: ScaleSizes = {
  envs: num("SCALE_ENVS", 100_000),
  perEnv: num("SCALE_PER_ENV", 10),
  checks: num("SCALE_CHECKS", 2),
  datasetItems: num("SCALE_DATASET_ITEMS", 100_000),
  rollouts: num("SCALE_ROLLOUTS", 2),
};
const RUNS = num("SCALE_RUNS", 20);
const PREVIEW_RUNS = num("SCALE_PREVIEW_RUNS", 3);
const BASELINE_ENVS = num("SCALE_BASELINE_ENVS", 10_000);
/** A page slower than this stops after five timed runs: p95 of five is their maximum. */
const PAGE_BUDGET_MS = 60_000;
const TARGET_MS = 200;
const EXPORT_FORMATS = ["HF_DATASET"] as const;

const log = (line: string) => console.log(line);
const load = () => round(loadavg()[0] ?? 0);

/** A page that fails (an error, not a slow answer) has no timing: `error` says why. */
type Timing = { p50: number; p95: number; runs: number; error?: string };

async function timePage(db: Db, page: Page): Promise<Timing> {
  try {
    await page.load(db); // warm: plans cached, pages of the tables in shared buffers
  } catch (e) {
    const message = e instanceof Error ? e.message.trim().split("\n").at(-1) : String(e);
    return { p50: -1, p95: -1, runs: 0, error: message };
  }
  const runs = page.slow ? PREVIEW_RUNS : RUNS;
  const ms: number[] = [];
  const start = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await page.load(db);
    ms.push(performance.now() - t0);
    if (i >= 4 && performance.now() - start > PAGE_BUDGET_MS) break;
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), runs: ms.length };
}

const wanted = (process.env.SCALE_PAGES ?? "").split(",").filter(Boolean);
const pages = () => PAGES.filter((p) => wanted.length === 0 || wanted.includes(p.name));

/** Seeds a scratch database at `sizes` and times every page on it. */
async function measure(sizes: ScaleSizes, label: string, reuse?: string) {
  const { url, drop } = reuse ? { url: reuse, drop: () => Promise.resolve() } : await scratchDatabase();
  const t0 = performance.now();
  if (!reuse) {
    log(
      `${label}: seeding ${sizes.envs} environments, ${sizes.envs * sizes.perEnv} scenarios (load ${load()})`,
    );
    await seedScale(url, sizes, log).catch(async (e: unknown) => {
      await drop();
      throw e;
    });
  }
  const seedS = round((performance.now() - t0) / 1000);
  const db = createDb(url);
  const timings = new Map<string, Timing>();
  try {
    const items = await db.datasetItem.count({ where: { datasetVersionId: "dv0" } });
    log(`${label}: seeded in ${seedS} s; dataset version of ${items} items`);
    for (const page of pages()) {
      const t = await timePage(db, page);
      timings.set(page.name, t);
      if (t.error) log(`  ${page.label.padEnd(62)} FAILED: ${t.error}`);
      else
        log(
          `  ${page.label.padEnd(62)} p50 ${String(t.p50).padStart(8)} ms  p95 ${String(t.p95).padStart(8)} ms  (${t.runs} runs, load ${load()})`,
        );
    }
  } finally {
    await db.$disconnect();
  }
  return { url, drop, seedS, timings };
}

type ExportRun = {
  format: string;
  scenarios: number;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
};

function exportInChild(url: string, format: string): ExportRun {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "bench/scale/export-child.ts", url, "dv0", format],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] },
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as ExportRun;
}

export async function main() {
  const startedAt = new Date().toISOString();
  const loadAtStart = load();
  const metrics: Record<string, number> = {
    environments: SIZES.envs,
    scenarios: SIZES.envs * SIZES.perEnv,
    load_average_start: loadAtStart,
  };
  const targets: Record<string, string> = {};
  // A database kept by an earlier run (SCALE_KEEP_DB=1): pages only, no seeding, no baseline.
  const reuse = process.env.SCALE_DATABASE_URL;
  if (BASELINE_ENVS > 0 && !reuse) {
    const base = await measure({ ...SIZES, envs: BASELINE_ENVS }, `baseline (${BASELINE_ENVS} environments)`);
    await base.drop();
    for (const [name, t] of base.timings) metrics[`baseline_${name}_p95_ms`] = t.p95;
  }
  const full = await measure(SIZES, "scale", reuse);
  try {
    metrics.seed_s = full.seedS;
    for (const [name, t] of full.timings) {
      metrics[`${name}_p50_ms`] = t.p50;
      metrics[`${name}_p95_ms`] = t.p95;
      targets[`${name}_p95_ms`] = `< ${TARGET_MS}`;
    }
    metrics.pages_over_target = [...full.timings.values()].filter((t) => t.p95 >= TARGET_MS).length;
    metrics.pages_failed = [...full.timings.values()].filter((t) => t.error).length;
    if (process.env.SCALE_SKIP_EXPORT !== "1") {
      for (const format of EXPORT_FORMATS) {
        const run = exportInChild(full.url, format);
        const mb = run.bytes / 1024 / 1024;
        const key = format.toLowerCase();
        log(
          `export ${format}: ${run.scenarios} scenarios, ${round(mb)} MB in ${round(run.seconds, 2)} s = ${round(mb / run.seconds)} MB/s, peak RSS ${run.peakRssMb} MB`,
        );
        metrics[`export_${key}_scenarios`] = run.scenarios;
        metrics[`export_${key}_megabytes`] = round(mb);
        metrics[`export_${key}_mb_per_s`] = round(mb / run.seconds);
        metrics[`export_${key}_mb_per_cpu_s`] = round(mb / run.cpuSeconds);
        metrics[`export_${key}_peak_rss_mb`] = run.peakRssMb;
        targets[`export_${key}_mb_per_s`] = ">= 50";
        targets[`export_${key}_peak_rss_mb`] = "< 300";
      }
    }
    metrics.load_average_end = load();
    log(`started ${startedAt}, load average ${loadAtStart} → ${metrics.load_average_end}`);
    writeResult("scale", metrics, targets);
  } finally {
    if (process.env.SCALE_KEEP_DB === "1") log(`kept ${full.url}`);
    else await full.drop();
  }
}
