/**
 * Sandbox benchmark: a 1,000-step episode through each backend (Pyodide, python3 in bubblewrap)
 * and through an unsandboxed python3 JSON-lines subprocess running the same harness (the
 * baseline); worker ready time, memory per worker, and validator throughput over 1,000
 * scenarios. Run: npm run bench -- sandbox
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { SHOP_CLASS, SHOP_SOURCE, shopState } from "../lib/sandbox/fixtures";
import { type SandboxRunner, createSandboxRunner } from "../lib/sandbox/index";
import { createUnsandboxedNativeRunner } from "../lib/sandbox/testing";
import { pythonRssBytes } from "./proc-memory";

const STEPS = 1_000;
const SCENARIOS = 1_000;
const ROUNDS = 5;
const SAMPLES_DIR = "prisma/seed/samples/shop-orders-refunds";

type Workload = {
  label: string;
  source: string;
  className: string;
  init: Record<string, unknown>;
  calls: { name: string; arguments: Record<string, unknown> }[];
  checks: string[];
};

const SampleScenario = z.object({
  init_config: z.record(z.string(), z.unknown()),
  gold_calls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  checklist_with_func: z.array(z.object({ check_func: z.string() })),
});

/** The product's seeded shop sample when present (its first scenario's gold calls, cycled), else the fixture. */
function workload(): Workload {
  if (existsSync(join(SAMPLES_DIR, "environment.py"))) {
    const meta = z
      .object({ env_class_name: z.string() })
      .parse(JSON.parse(readFileSync(join(SAMPLES_DIR, "meta.json"), "utf8")));
    const [scenario] = z
      .array(SampleScenario)
      .parse(JSON.parse(readFileSync(join(SAMPLES_DIR, "scenarios.json"), "utf8")));
    if (scenario) {
      return {
        label: `${SAMPLES_DIR} (${meta.env_class_name})`,
        source: readFileSync(join(SAMPLES_DIR, "environment.py"), "utf8"),
        className: meta.env_class_name,
        init: scenario.init_config,
        calls: scenario.gold_calls,
        checks: scenario.checklist_with_func.map((c) => c.check_func),
      };
    }
  }
  return {
    label: "lib/sandbox/fixtures/shop_env.py",
    source: SHOP_SOURCE,
    className: SHOP_CLASS,
    init: shopState(50, 100),
    calls: [
      { name: "get_user", arguments: { user_id: "U1" } },
      { name: "search_products", arguments: { query: "mug", max_results: 3 } },
    ],
    checks: [
      "def check_func(final_state):\n    return len(final_state['orders']) >= len(initial_state['orders'])",
    ],
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

type Backend = "native" | "pyodide" | "bwrap";
type Lane = {
  name: Backend;
  runner: SandboxRunner;
  p50s: number[];
  /** Batched validator throughput per round (checks/s). */
  batched: number[];
  all: number[];
  firstLoadMs: number;
  rssPython: number;
  finalState: Record<string, unknown>;
};

/** One 1,000-step episode; returns per-step latencies in microseconds. */
async function episodeLatencies(lane: Lane, w: Workload, steps: number): Promise<number[]> {
  const loadStart = performance.now();
  const episode = await lane.runner.load({ source: w.source, className: w.className, initialState: w.init });
  if (!episode.ok) throw new Error(`${lane.name}: load failed: ${episode.error.message}`);
  lane.firstLoadMs ||= performance.now() - loadStart;
  const latencies: number[] = [];
  for (let i = 0; i < steps; i++) {
    const call = w.calls[i % w.calls.length];
    if (!call) break;
    const start = process.hrtime.bigint();
    const step = await episode.value.step(call.name, call.arguments);
    latencies.push(Number(process.hrtime.bigint() - start) / 1_000);
    if (!step.ok) throw new Error(`${lane.name}: step ${i} failed: ${step.error.message}`);
  }
  const finalState = await episode.value.state();
  if (!finalState.ok) throw new Error(finalState.error.message);
  lane.finalState = finalState.value;
  lane.rssPython = Math.max(lane.rssPython, pythonRssBytes());
  await episode.value.close();
  return latencies;
}

async function validatorThroughput(lane: Lane, w: Workload) {
  const start = performance.now();
  let checks = 0;
  for (let i = 0; i < SCENARIOS; i++) {
    // A different final state per scenario; the check code stays the same, as for one task type.
    const state = { ...lane.finalState, scenario_index: i };
    const result = await lane.runner.runChecks({ checks: w.checks, initialState: w.init, finalState: state });
    if (!result.ok) throw new Error(`${lane.name}: checks failed: ${result.error.message}`);
    checks += result.value.length;
  }
  return checks / ((performance.now() - start) / 1000);
}

/** The same validator over the same scenarios through runChecksBatch (64 scenarios per call). */
async function batchedValidatorThroughput(lane: Lane, w: Workload) {
  const cases = Array.from({ length: SCENARIOS }, (_, i) => ({
    initialState: w.init,
    finalState: { ...lane.finalState, scenario_index: i },
  }));
  const start = performance.now();
  const result = await lane.runner.runChecksBatch({ checks: w.checks, cases });
  if (!result.ok) throw new Error(`${lane.name}: batched checks failed: ${result.error.message}`);
  const checks = result.value.reduce((n, r) => n + r.length, 0);
  return checks / ((performance.now() - start) / 1000);
}

function makeRunner(name: Backend): SandboxRunner {
  return name === "native"
    ? createUnsandboxedNativeRunner({ spareWorkers: 1 })
    : createSandboxRunner({ backend: name, poolSize: 1, spareWorkers: 1 });
}

/** Rounds alternate the backends so that machine load hits all of them alike (ratios matter). */
async function measureLanes(w: Workload): Promise<Lane[]> {
  const lanes: Lane[] = [];
  for (const name of ["native", "pyodide", "bwrap"] as const) {
    try {
      const lane: Lane = {
        name,
        runner: makeRunner(name),
        p50s: [],
        batched: [],
        all: [],
        firstLoadMs: 0,
        rssPython: 0,
        finalState: {},
      };
      await episodeLatencies(lane, w, 200); // warm-up: boot, wasm tier-up, caches
      lanes.push(lane);
    } catch (error) {
      process.stdout.write(`${name}: skipped (${error instanceof Error ? error.message : String(error)})\n`);
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const lane of lanes) {
      const latencies = (await episodeLatencies(lane, w, STEPS)).sort((a, b) => a - b);
      lane.p50s.push(percentile(latencies, 50));
      lane.all.push(...latencies);
    }
  }
  // Validators after the steps (interleaving them disturbed the next lane's step latencies).
  for (let round = 0; round < ROUNDS; round++)
    for (const lane of lanes) lane.batched.push(await batchedValidatorThroughput(lane, w));
  return lanes;
}

async function summarize(lane: Lane, w: Workload) {
  const checksPerSecond = await validatorThroughput(lane, w);
  const batchedChecksPerSecond = percentile(
    [...lane.batched].sort((a, b) => a - b),
    50,
  );
  const stats = await lane.runner.stats();
  const ready = [...stats.readyMs].sort((a, b) => a - b);
  const all = [...lane.all].sort((a, b) => a - b);
  // Pyodide: the host's RSS (workers + the shared compiled module and snapshot) per worker.
  const memoryPerWorker =
    lane.name === "pyodide" ? stats.rssBytes / Math.max(1, stats.workers) : lane.rssPython;
  return {
    step_p50_us: round(
      percentile(
        [...lane.p50s].sort((a, b) => a - b),
        50,
      ),
    ),
    step_p99_us: round(percentile(all, 99)),
    first_load_ms: round(lane.firstLoadMs),
    worker_ready_ms: round(percentile(ready, 50)),
    memory_per_worker_mib: round(memoryPerWorker / 2 ** 20),
    ...(lane.name === "pyodide"
      ? { host_rss_mib: round(stats.rssBytes / 2 ** 20), host_workers: stats.workers }
      : {}),
    checks_per_second: round(checksPerSecond, 0),
    checks_per_second_batched: round(batchedChecksPerSecond, 0),
  };
}

/** Median over rounds of lane p50 / native p50 in the same round. Rounds alternate the lanes
 * within seconds, so a burst of load from other processes hits both sides of one ratio. */
function pairedRatio(lane: Lane, native: Lane): number {
  const ratios = lane.p50s.map((p50, i) => p50 / (native.p50s[i] ?? NaN)).sort((a, b) => a - b);
  return percentile(ratios, 50);
}

/** Median over rounds of native batched throughput / the lane's in the same round (slowdown). */
function pairedBatchedSlowdown(lane: Lane, native: Lane): number {
  const ratios = lane.batched.map((b, i) => (native.batched[i] ?? NaN) / b).sort((a, b) => a - b);
  return percentile(ratios, 50);
}

export async function main(): Promise<void> {
  const w = workload();
  process.stdout.write(
    `sandbox benchmark: ${ROUNDS} rounds of ${STEPS} steps on ${w.label}, validator over ${SCENARIOS} scenarios x ${w.checks.length} checks\n`,
  );
  const lanes = await measureLanes(w);
  const nativeLane = lanes.find((l) => l.name === "native");
  const ratios = Object.fromEntries(
    lanes.map((l) => [l.name, nativeLane ? round(pairedRatio(l, nativeLane), 2) : NaN]),
  );
  for (const lane of lanes)
    if (nativeLane && lane !== nativeLane)
      process.stdout.write(
        `${lane.name} / native p50 per round: ${lane.p50s.map((p, i) => round(p / (nativeLane.p50s[i] ?? NaN), 2)).join(", ")}\n` +
          `${lane.name} batched validators, times slower than native per round: ${lane.batched.map((b, i) => round((nativeLane.batched[i] ?? NaN) / b, 2)).join(", ")}\n`,
      );
  const results: Record<string, Awaited<ReturnType<typeof summarize>>> = {};
  for (const lane of lanes) {
    results[lane.name] = await summarize(lane, w);
    await lane.runner.close();
  }
  const native = results.native;
  const metrics: Record<string, number> = {};
  for (const [name, r] of Object.entries(results)) {
    for (const [key, value] of Object.entries(r)) metrics[`${name}_${key}`] = value;
    if (native && name !== "native") {
      metrics[`${name}_step_p50_ratio_to_native`] = ratios[name] ?? NaN;
      // Validator throughput as "times slower than native" (target: <= 2).
      metrics[`${name}_checks_slowdown_vs_native`] = round(native.checks_per_second / r.checks_per_second, 2);
      // Batched: paired by round, as the step ratio (one pass per lane swung 1.9-2.7x).
      const lane = lanes.find((l) => l.name === name);
      metrics[`${name}_checks_batched_slowdown_vs_native`] =
        lane && nativeLane ? round(pairedBatchedSlowdown(lane, nativeLane), 2) : NaN;
    }
    const ratio = native && name !== "native" ? ` (${ratios[name]}x native, paired by round)` : "";
    process.stdout.write(
      `${name.padEnd(8)} step p50 ${r.step_p50_us} us${ratio}, p99 ${r.step_p99_us} us | ready ${r.worker_ready_ms} ms | first load ${r.first_load_ms} ms | ` +
        `${r.memory_per_worker_mib} MiB/worker | ${r.checks_per_second} checks/s, ${r.checks_per_second_batched} batched\n`,
    );
  }
  const targets = {
    pyodide_step_p50_ratio_to_native: {
      max: 1.5,
      met: (metrics.pyodide_step_p50_ratio_to_native ?? Infinity) <= 1.5,
    },
    pyodide_checks_batched_slowdown_vs_native: {
      max: 2,
      met: (metrics.pyodide_checks_batched_slowdown_vs_native ?? Infinity) <= 2,
    },
  };
  const out = {
    name: "sandbox",
    workload: w.label,
    steps: STEPS,
    rounds: ROUNDS,
    scenarios: SCENARIOS,
    metrics,
    targets,
  };
  writeFileSync(join("bench", "results", "sandbox.json"), JSON.stringify(out, null, 2) + "\n");
  process.stdout.write(
    `target pyodide step p50 <= 1.5x native: ${targets.pyodide_step_p50_ratio_to_native.met ? "met" : "NOT met"}\n` +
      `target pyodide validators (batched) <= 2x slower than native: ${targets.pyodide_checks_batched_slowdown_vs_native.met ? "met" : "NOT met"}\nwrote bench/results/sandbox.json\n`,
  );
}
