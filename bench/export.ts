/**
 * `npm run bench -- export`: 100,000 generated scenarios (25 environments) streamed through the
 * Hugging Face JSONL writer to a temp folder. Reports MB/s and the process's peak RSS.
 * Target: ≥ 50 MB/s under 300 MB, so a 100,000-scenario export takes seconds on a small machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ExportScenario } from "../lib/export/export.schema";
import { createDirSink } from "../lib/export/sink";
import { COUNTER_ENV, counterScenario } from "../lib/export/testing/fixture";
import { writeExport } from "../lib/export/write-export";
import { round, sampleRss, writeResult } from "./bench-util";

const SCENARIOS = Number(process.env.BENCH_EXPORT_SCENARIOS ?? 100_000);
const ENVS = 25;
const WORDS =
  "the member asks the desk to renew every active loan check fines and place a hold on the title".split(" ");

/** A realistic ~1.5 KB scenario: a few entities in the initial state, a 60-word task, three checks. */
function scenario(i: number): ExportScenario {
  const base = counterScenario(i % 97, i % 5 === 0 ? "TEST" : "TRAIN", false);
  const members = Object.fromEntries(
    Array.from({ length: 4 }, (_, k) => [
      `M${i}-${k}`,
      {
        member_id: `M${i}-${k}`,
        name: `Member ${k}`,
        tier: k % 2 ? "premium" : "standard",
        fines_due: k * 0.25,
      },
    ]),
  );
  return {
    ...base,
    envId: `env-${i % ENVS}`,
    taskId: `task-${String(i).padStart(6, "0")}`,
    task: Array.from({ length: 60 }, (_, k) => WORDS[(i + k) % WORDS.length]).join(" "),
    initialState: { members, count: i, clock: { current_date: "2026-03-01" } },
    checks: [...base.checks, ...base.checks, ...base.checks],
    checklist: [...base.checklist, ...base.checklist, ...base.checklist],
  };
}

/** Lazily generated, like rows paged from the database: never more than one batch in memory. */
function generate(): AsyncIterable<ExportScenario> {
  let i = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        Promise.resolve(
          i < SCENARIOS ? { value: scenario(i++), done: false } : { value: undefined, done: true as const },
        ),
    }),
  };
}

export async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-export-"));
  const environments = Array.from({ length: ENVS }, (_, i) => ({ ...COUNTER_ENV, envId: `env-${i}` }));
  const stopRss = sampleRss();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const summary = await writeExport(
    "HF_DATASET",
    {
      dataset: {
        name: "bench",
        version: 1,
        description: "",
        seed: 1,
        testRatio: 0.2,
        createdAt: new Date().toISOString(),
        stats: {},
      },
      environments,
      scenarios: generate(),
    },
    createDirSink(dir),
  );
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  // CPU seconds too: on a shared machine wall-clock MB/s swings with other load.
  const cpuSeconds = (used.user + used.system) / 1e6;
  const peakRssMb = stopRss();
  rmSync(dir, { recursive: true, force: true });
  const mb = summary.bytes / 1024 / 1024;
  writeResult(
    "export",
    {
      scenarios: summary.scenarios,
      megabytes: round(mb),
      seconds: round(seconds, 2),
      mbPerSecond: round(mb / seconds),
      mbPerCpuSecond: round(mb / cpuSeconds),
      peakRssMb,
    },
    { mbPerSecond: ">= 50", peakRssMb: "< 300" },
  );
}
