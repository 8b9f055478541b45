/**
 * Every seeded sample scenario (prisma/seed/samples), with tool schemas extracted by the studio's
 * own extractor, exported for verl, TRL and OpenEnv; its gold calls replayed through each export
 * with the lifecycle of that trainer (verl: create/execute/release per call + compute_score; TRL:
 * one environment_factory instance per rollout + get_reward; OpenEnv: one Environment per
 * WebSocket session + submit) score reward 1. Harnesses: lib/export/testing/upstream.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSamples, type Sample } from "@/prisma/seed/load-samples";
import { createUnsandboxedNativeRunner } from "../../sandbox/testing";
import type { ExportEnvironment, ExportInput, ExportScenario, OpenAiTool } from "../export.schema";
import { iterate } from "../testing/fixture";
import { exportFixture, readParquet, runHarness } from "../testing/run-python";
import { packageName } from "./openenv";
import { trlClassName } from "./trl-wrapper";

const samples = loadSamples();
const dirs: string[] = [];
let input: () => ExportInput;

function toEnvironment(sample: Sample, tools: OpenAiTool[]): ExportEnvironment {
  const m = sample.meta;
  return {
    envId: sample.slug,
    name: m.environment_summary,
    description: m.environment_introduction,
    domain: m.domain,
    className: m.env_class_name,
    source: sample.source,
    sourceHash: "0".repeat(64),
    version: 1,
    tools,
    stateSchema: m.state_space_definition,
    rules: m.constraints_rules,
    operations: m.operation_list,
    metadata: {},
  };
}

function toScenarios(sample: Sample): ExportScenario[] {
  return sample.scenarios.map((s) => ({
    envId: sample.slug,
    taskId: s.task_id,
    split: "TRAIN",
    task: s.task,
    initialState: s.init_config,
    checklist: s.checklist,
    checks: s.checklist_with_func.map((c) => ({
      checkItem: c.check_item,
      code: c.check_func,
      validatorVersion: 1,
    })),
    goldCalls: s.gold_calls,
    trajectories: [],
  }));
}

beforeAll(async () => {
  const runner = createUnsandboxedNativeRunner({ spareWorkers: 1 });
  try {
    const envs: ExportEnvironment[] = [];
    for (const sample of samples) {
      const tools = await runner.extractTools(sample.source, sample.meta.env_class_name);
      if (!tools.ok) throw new Error(tools.error.message);
      envs.push(toEnvironment(sample, tools.value));
    }
    const scenarios = samples.flatMap(toScenarios);
    input = () => ({
      dataset: {
        name: "samples",
        version: 1,
        description: "",
        seed: 1,
        testRatio: 0,
        createdAt: "2026-01-01T00:00:00.000Z",
        stats: {},
      },
      environments: envs,
      scenarios: iterate(scenarios),
    });
  } finally {
    await runner.close();
  }
}, 120_000);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const cases = samples.flatMap((sample) =>
  sample.scenarios.map((s) => ({
    slug: sample.slug,
    className: sample.meta.env_class_name,
    taskId: s.task_id,
    gold: s.gold_calls,
  })),
);

describe("verl: ToolAgentLoop lifecycle + compute_score", () => {
  let dir = "";
  let rows: Record<string, unknown>[] = [];
  beforeAll(async () => {
    dirs.push((dir = await exportFixture("VERL_PARQUET", input())));
    rows = await readParquet(path.join(dir, "data/train.parquet"));
  });

  it.each(cases)("$taskId scores 1 (tool config loads with single-string types)", ({ taskId, gold }) => {
    const row = rows.find((r) => (r.extra_info as { task_id: string }).task_id === taskId);
    const out = runHarness<{ score?: number; schema_error?: string }>("verl_harness.py", [dir], {
      row,
      calls: gold,
      strict_types: true,
    });
    expect(out).toEqual({ ...out, score: 1 });
    expect(out.schema_error).toBeUndefined();
  });
});

describe("TRL: environment_factory instance + get_reward", () => {
  let dir = "";
  beforeAll(async () => void dirs.push((dir = await exportFixture("OPENENV_PACKAGE", input()))));

  it.each(cases)("$taskId scores 1", ({ slug, className, taskId, gold }) => {
    const pkg = path.join(dir, packageName(slug));
    const example = readFileSync(path.join(pkg, "trl_dataset.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { task_id: string })
      .find((r) => r.task_id === taskId);
    const out = runHarness<{ reward: number; tools: unknown[] }>(
      "trl_harness.py",
      [pkg, trlClassName(className)],
      { example, calls: gold },
    );
    expect(out.reward).toBe(1);
    expect(out.tools.length).toBeGreaterThan(3);
  });
});

describe("OpenEnv: one Environment per session + submit", () => {
  let dir = "";
  beforeAll(async () => void dirs.push((dir = await exportFixture("OPENENV_PACKAGE", input()))));

  it.each(cases)("$taskId scores 1", ({ slug, taskId, gold }) => {
    const out = runHarness<{ reward: number; issues: string[] }>(
      "openenv_harness.py",
      [dir, packageName(slug)],
      { scenario_id: taskId, calls: gold },
    );
    expect(out.reward).toBe(1);
    expect(out.issues).toEqual(["Missing uv.lock - run 'uv lock' to generate it"]);
  });
});
