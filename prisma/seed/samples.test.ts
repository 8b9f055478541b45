/**
 * Proves every hand-written sample: it loads and validates, its class follows the EnvScaler
 * runtime contract, each scenario's gold calls succeed, and each check function is False on the
 * initial state and True after the gold calls ("validator proof"). Runs the Python natively
 * through prisma/seed/verify-samples.py — test-only; the product runs code in lib/sandbox.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SAMPLES_DIR, loadSamples, SampleLoadError, type Sample } from "./load-samples";

const DRIVER = fileURLToPath(new URL("./verify-samples.py", import.meta.url));
const MIN_TOOLS = 8;
const MIN_SCENARIOS = 2;
/** Imports a sample may use: the standard library modules EnvScaler-style envs need. */
const ALLOWED_IMPORTS = new Set([
  "typing",
  "datetime",
  "copy",
  "re",
  "math",
  "uuid",
  "collections",
  "enum",
  "dataclasses",
  "json",
]);

type CheckReport = {
  check_item: string;
  initial: boolean | null;
  initial_error: string | null;
  final: boolean | null;
  final_error: string | null;
};
type CallReport = { name: string; arguments: Record<string, unknown>; result: unknown; error: string | null };
type ScenarioReport = { task_id: string; error: string | null; calls: CallReport[]; checks: CheckReport[] };
type DriverReport = {
  error: string | null;
  public_methods: string[];
  async_methods: string[];
  declared_attributes: string[];
  scenarios: ScenarioReport[];
};

function runDriver(sample: Sample): DriverReport {
  const request = JSON.stringify({
    source: sample.source,
    class_name: sample.meta.env_class_name,
    scenarios: sample.scenarios,
  });
  const proc = spawnSync("python3", [DRIVER], {
    input: request,
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 32 * 1024 * 1024,
  });
  if (proc.error) throw new Error(`could not run python3 for ${sample.slug}: ${proc.error.message}`);
  if (proc.status !== 0)
    throw new Error(`verify-samples.py failed for ${sample.slug} (exit ${proc.status}):\n${proc.stderr}`);
  return JSON.parse(proc.stdout) as DriverReport;
}

const samples = loadSamples();

describe("loadSamples", () => {
  it("finds at least three samples in different domains", () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(new Set(samples.map((s) => s.meta.domain)).size).toBe(samples.length);
    expect(new Set(samples.map((s) => s.meta.env_id)).size).toBe(samples.length);
  });

  it("keeps task ids unique across all samples", () => {
    const ids = samples.flatMap((s) => s.scenarios.map((sc) => sc.task_id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe("on bad data", () => {
    let dir: string;
    const slug = "clinic-scheduling";
    const copyOne = () => {
      cpSync(path.join(DEFAULT_SAMPLES_DIR, slug), path.join(dir, slug), { recursive: true });
      return path.join(dir, slug);
    };
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), "samples-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    // Loosely typed views of the files, just enough to corrupt one field.
    type MetaJson = { operation_list: { operation_type: string }[]; env_class_name: string };
    type ScenariosJson = { task: string; gold_calls?: unknown }[];
    const editJson = <T>(file: string, edit: (value: T) => void) => {
      const value = JSON.parse(readFileSync(file, "utf8")) as T;
      edit(value);
      writeFileSync(file, JSON.stringify(value));
    };

    it("names the file and the field of an invalid meta.json", () => {
      const folder = copyOne();
      editJson<MetaJson>(path.join(folder, "meta.json"), (m) => {
        m.operation_list[2]!.operation_type = "mutation";
      });
      expect(() => loadSamples(dir)).toThrowError(SampleLoadError);
      expect(() => loadSamples(dir)).toThrowError(/meta\.json: operation_list\.2\.operation_type/);
    });

    it("names the scenario field of an invalid scenarios.json", () => {
      const folder = copyOne();
      editJson<ScenariosJson>(path.join(folder, "scenarios.json"), (s) => {
        s[1]!.task = "Too short.";
        delete s[0]!.gold_calls;
      });
      expect(() => loadSamples(dir)).toThrowError(
        /scenarios\.json: 0\.gold_calls: .*; 1\.task: must have at least 50 words/,
      );
    });

    it("reports a class name that the module does not define", () => {
      const folder = copyOne();
      editJson<MetaJson>(path.join(folder, "meta.json"), (m) => {
        m.env_class_name = "NoSuchClass";
      });
      expect(() => loadSamples(dir)).toThrowError(/environment\.py: env_class_name: class NoSuchClass/);
    });

    it("reports malformed JSON and missing files", () => {
      const folder = copyOne();
      writeFileSync(path.join(folder, "scenarios.json"), "[{");
      expect(() => loadSamples(dir)).toThrowError(/scenarios\.json: invalid JSON/);
      rmSync(path.join(folder, "environment.py"));
      expect(() => loadSamples(dir)).toThrowError(/environment\.py: file is missing/);
    });
  });
});

describe.each(samples.map((s) => [s.slug, s] as const))("sample %s", (_slug, sample) => {
  let report: DriverReport;
  beforeAll(() => {
    report = runDriver(sample);
  });

  it("imports only the standard library", () => {
    const modules = [...sample.source.matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm)].map(
      (m) => (m[1] ?? m[2])!.split(".")[0]!,
    );
    expect(modules.filter((m) => !ALLOWED_IMPORTS.has(m))).toEqual([]);
  });

  it("defines the class with enough synchronous public tools, matching meta.operation_list", () => {
    expect(report.error).toBeNull();
    expect(
      report.public_methods.length,
      `public tools: ${report.public_methods.join(", ")}`,
    ).toBeGreaterThanOrEqual(MIN_TOOLS);
    expect(report.async_methods).toEqual([]);
    expect([...report.public_methods].sort()).toEqual(
      sample.meta.operation_list.map((op) => op.operation_name).sort(),
    );
    const kinds = new Set(sample.meta.operation_list.map((op) => op.operation_type));
    expect(kinds).toEqual(new Set(["query", "state_change"]));
  });

  it(`has at least ${MIN_SCENARIOS} scenarios whose init_config only uses declared state attributes`, () => {
    expect(sample.scenarios.length).toBeGreaterThanOrEqual(MIN_SCENARIOS);
    for (const scenario of sample.scenarios) {
      const unknown = Object.keys(scenario.init_config).filter(
        (k) => !report.declared_attributes.includes(k),
      );
      expect(unknown, `${scenario.task_id}: init_config keys the class does not declare`).toEqual([]);
    }
  });

  describe.each(sample.scenarios.map((s, i) => [s.task_id, i] as const))("scenario %s", (taskId, index) => {
    const scenarioReport = () => {
      const r = report.scenarios[index];
      expect(r?.task_id).toBe(taskId);
      expect(r?.error ?? null, `instantiation of ${taskId}`).toBeNull();
      return r!;
    };

    it("replays every gold call with success: True", () => {
      const r = scenarioReport();
      expect(r.calls.length).toBe(sample.scenarios[index]!.gold_calls.length);
      r.calls.forEach((call, i) => {
        const where = `${taskId} gold call #${i} ${call.name}(${JSON.stringify(call.arguments)})`;
        expect(call.error, `${where} raised`).toBeNull();
        expect(call.result, `${where} returned ${JSON.stringify(call.result)}`).toMatchObject({
          success: true,
        });
      });
      // A task that needs no state change cannot be verified from the final state.
      const stateChanges = new Set(
        sample.meta.operation_list
          .filter((op) => op.operation_type === "state_change")
          .map((op) => op.operation_name),
      );
      expect(
        r.calls.some((c) => stateChanges.has(c.name)),
        `${taskId} has no state-changing gold call`,
      ).toBe(true);
    });

    it("has check functions that are False on the initial state", () => {
      for (const check of scenarioReport().checks) {
        expect(check.initial_error, `${taskId} "${check.check_item}" on the initial state`).toBeNull();
        expect(check.initial, `${taskId} "${check.check_item}" must be False before any call`).toBe(false);
      }
    });

    it("has check functions that are True after the gold calls", () => {
      const r = scenarioReport();
      expect(r.checks.length).toBe(sample.scenarios[index]!.checklist_with_func.length);
      for (const check of r.checks) {
        expect(check.final_error, `${taskId} "${check.check_item}" on the final state`).toBeNull();
        expect(check.final, `${taskId} "${check.check_item}" must be True after the gold calls`).toBe(true);
      }
    });
  });
});
