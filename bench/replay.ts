/**
 * `npm run bench -- replay`: a batch replay of large environment classes, as `envstudio env replay`
 * runs one, against native python3 running the same batch with the same parallelism and warmth.
 *
 * Workload: the three seeded samples, each class grown past 150 KB of source with extra tool methods
 * (docstrings, argument handling and a loop over the state, never called), so parsing, tool
 * extraction and loading cost what a large generated class costs; 90 episodes alternating between
 * the classes (each sample's three scenarios, their gold calls), final state and checks included.
 * Lanes: Pyodide (default) and bwrap through the sandbox runner, `replayEpisodes` with one episode in
 * flight per core; native: one warm python3 process per core (bench/replay-native-lanes.ts), each
 * with the batch already parsed, compiling each source once and running every episode in a fresh
 * module. Every lane gets the same warm-up, one untimed pass over the whole batch (every worker or
 * process booted and every class prepared where the lane keeps it), and its input ready before the
 * clock starts: the native lanes hold the parsed batch, the sandbox lanes its JSON lines, which
 * `replayEpisodes` parses as `envstudio env replay` does (timed alone too, as sandboxLineParseMs).
 * 5 rounds, lanes alternating, ratios per round, medians.
 * Target: Pyodide wall time <= 3x native.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createSandboxRunner, replayEpisodes, replayRunnerOptions, type SandboxRunner } from "../lib/sandbox";
import { round, writeResult } from "./bench-util";
import { type LaneOutcome, startNativeLanes } from "./replay-native-lanes";

const ROUNDS = Number(process.env.BENCH_REPLAY_ROUNDS ?? 5);
const EPISODES = Number(process.env.BENCH_REPLAY_EPISODES ?? 90);
const MIN_SOURCE_BYTES = 150 * 1024;
const SAMPLES = path.join(import.meta.dirname, "..", "prisma", "seed", "samples");

type Episode = {
  id: number;
  source: string;
  class_name: string;
  init: Record<string, unknown>;
  calls: { name: string; arguments: Record<string, unknown> }[];
  checks: string[];
};

/** Extra tool methods appended to the class (the class is the last statement of each sample). */
function extraMethods(className: string, bytes: number): string {
  let out = "";
  for (let i = 0; out.length < bytes; i++) {
    out += `
    def audit_view_${i}(self, limit: int = 10, tag: str = "all") -> dict:
        """
        Summarize the ${className} records for audit view ${i}.

        Args:
            limit (int): Maximum number of entries to include; must be positive.
            tag (str): Filter tag for the report, or "all".

        Returns:
            dict: {"success": True, "data": {"tag": str, "entries": list}} on success,
                  {"success": False, "error": str} if the limit is not positive.
        """
        if limit <= 0:
            return {"success": False, "error": "limit must be positive"}
        entries = []
        for name, value in sorted(vars(self).items()):
            if name.startswith("_"):
                continue
            size = len(value) if isinstance(value, (dict, list)) else 1
            entries.append({"attribute": name, "size": size, "view": ${i}, "tag": tag})
            if len(entries) >= limit:
                break
        return {"success": True, "data": {"tag": tag, "entries": entries}}
`;
  }
  return out;
}

function workload(): Episode[] {
  const classes = readdirSync(SAMPLES).map((dir) => {
    const { env_class_name: className } = JSON.parse(
      readFileSync(path.join(SAMPLES, dir, "meta.json"), "utf8"),
    ) as { env_class_name: string };
    const base = readFileSync(path.join(SAMPLES, dir, "environment.py"), "utf8").trimEnd() + "\n";
    const source = base + extraMethods(className, MIN_SOURCE_BYTES - base.length + 1024);
    const scenarios = JSON.parse(readFileSync(path.join(SAMPLES, dir, "scenarios.json"), "utf8")) as {
      init_config: Record<string, unknown>;
      gold_calls: Episode["calls"];
      checklist_with_func: { check_func: string }[];
    }[];
    return { className, source, scenarios };
  });
  return Array.from({ length: EPISODES }, (_, id) => {
    const c = classes[id % classes.length]!;
    const s = c.scenarios[Math.floor(id / classes.length) % c.scenarios.length]!;
    return {
      id,
      source: c.source,
      class_name: c.className,
      init: s.init_config,
      calls: s.gold_calls,
      checks: s.checklist_with_func.map((x) => x.check_func),
    };
  });
}

/** Replays the batch's JSON lines (prepared by the caller, untimed) as `envstudio env replay` does;
 * parsing each line is part of the replay and timed. */
async function sandboxRun(runner: SandboxRunner, lines: string[]): Promise<LaneOutcome> {
  const start = performance.now();
  let passed = 0;
  let failed = 0;
  const input = Readable.from(lines) as AsyncIterable<string>;
  for await (const r of replayEpisodes(runner, input, availableParallelism())) {
    const ok = !r.error && (r.check_results ?? []).every((c) => "passed" in c && c.passed);
    if (ok) passed += 1;
    else failed += 1;
  }
  return { ms: performance.now() - start, passed, failed };
}

/** What the sandbox lanes spend reading the batch's JSON lines, which the native lanes receive
 * parsed: JSON.parse of every line once, on the same thread as the replay. */
function lineParseMs(lines: string[]): number {
  const start = performance.now();
  for (const line of lines) JSON.parse(line);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function main() {
  const episodes = workload();
  const sizes = [...new Set(episodes.map((e) => e.source.length))];
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-replay-")), "episodes.json");
  writeFileSync(file, JSON.stringify(episodes));
  console.log(
    `replay bench: ${episodes.length} episodes over ${sizes.length} classes of ${sizes.map((s) => `${Math.round(s / 1024)} KB`).join(", ")}`,
  );
  const lines = episodes.map((e) => JSON.stringify(e));
  const indices = episodes.map((_, i) => i);
  // As `envstudio env replay --concurrency <cores>` sets its runner up.
  const options = replayRunnerOptions(availableParallelism());
  const native = await startNativeLanes(file, availableParallelism());
  const runners = {
    pyodide: createSandboxRunner({ backend: "pyodide", ...options }),
    bwrap: createSandboxRunner({ backend: "bwrap", ...options }),
  };
  const times: Record<string, number[]> = { native: [], pyodide: [], bwrap: [], lineParse: [] };
  const ratios: Record<string, number[]> = { pyodide: [], bwrap: [] };
  const failures: string[] = [];
  const load = [loadavg()[0] ?? 0];
  try {
    // Warm-up, the same for every lane: one untimed pass over the batch, so the rounds measure the
    // steady state of a long replay (a first pass also prepares each class once per worker or process).
    await native.run(indices);
    for (const runner of Object.values(runners)) await sandboxRun(runner, lines);
    for (let r = 0; r < ROUNDS; r++) {
      const nativeRound = await native.run(indices);
      times.native!.push(nativeRound.ms);
      if (nativeRound.failed) failures.push(`native: ${nativeRound.failed} episodes not at reward 1`);
      for (const [name, runner] of Object.entries(runners)) {
        const outcome = await sandboxRun(runner, lines);
        times[name]!.push(outcome.ms);
        ratios[name]!.push(outcome.ms / nativeRound.ms);
        if (outcome.failed) failures.push(`${name}: ${outcome.failed} episodes failed or not at reward 1`);
      }
      times.lineParse!.push(lineParseMs(lines));
      load.push(loadavg()[0] ?? 0);
      console.log(
        `round ${r + 1}/${ROUNDS}: native ${round(nativeRound.ms)} ms, pyodide ${round(times.pyodide!.at(-1)!)} ms, bwrap ${round(times.bwrap!.at(-1)!)} ms`,
      );
    }
  } finally {
    native.close();
    await Promise.all(Object.values(runners).map((r) => r.close()));
  }
  const metrics = {
    episodes: episodes.length,
    classes: sizes.length,
    smallestSourceKiB: round(Math.min(...sizes) / 1024),
    rounds: ROUNDS,
    loadAvg1mMax: round(Math.max(...load), 2),
    nativeMs: round(median(times.native!)),
    pyodideMs: round(median(times.pyodide!)),
    bwrapMs: round(median(times.bwrap!)),
    sandboxLineParseMs: round(median(times.lineParse!)),
    pyodideVsNative: round(median(ratios.pyodide!), 2),
    bwrapVsNative: round(median(ratios.bwrap!), 2),
  };
  writeResult("replay", metrics, {
    pyodideVsNative: "<= 3 (wall time of the batch, median of per-round ratios)",
    note: "every episode must finish with all checks passing; the sandbox lanes' time includes parsing the JSON lines (sandboxLineParseMs), the native lanes get the batch parsed",
  });
  if (failures.length) {
    process.stderr.write(`replay bench FAILED: ${failures.join("; ")}\n`);
    process.exitCode = 1;
  }
}
