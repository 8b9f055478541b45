/**
 * verl contract (verl-project/verl 1dda039c): the export loads through the tool registry, keeps
 * one episode per trajectory through ToolAgentLoop's create → execute → release per call, and its
 * compute_score scores the final state. The verl side is lib/export/testing/upstream/verl_harness.py,
 * a re-implementation of the named upstream files (verl cannot be installed here).
 * The episode reaches the reward only since verl-project/verl 9aaa5761a (2026-03-10, first released
 * in v0.7.1): verl/experimental/agent_loop/tool_agent_loop.py builds AgentLoopOutput with
 * `extra_fields=agent_data.extra_fields` instead of `extra_fields={}`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { CLINIC_GOLD, CLINIC_TOOLS, clinicInput } from "../testing/clinic-fixture";
import { exportFixture, readParquet, runHarness, runPython } from "../testing/run-python";
import { singleTypeTool } from "./single-type-schema";

type Outcome = {
  score?: number;
  score_error?: string;
  schema_error?: string;
  tool_texts?: string[];
  result?: Record<string, number>;
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function exportVerl() {
  const dir = await exportFixture("VERL_PARQUET", clinicInput());
  dirs.push(dir);
  const [row] = await readParquet(path.join(dir, "data/train.parquet"));
  return { dir, row };
}

describe("verl tool schema (verl/tools/schemas.py OpenAIFunctionPropertySchema)", () => {
  it("emits one type per property; a nullable property leaves required; other keywords stay", () => {
    const [update, book] = CLINIC_TOOLS.map(singleTypeTool);
    expect(update?.function.parameters).toEqual({
      type: "object",
      required: ["patient_id", "provider"],
      properties: {
        patient_id: { type: "string", description: "The patient." },
        provider: { type: "string", description: "Insurance company." },
        plan: { type: "string", description: "Plan name, if any." },
      },
    });
    expect(book?.function.parameters.properties).toMatchObject({
      slot: { type: "string", enum: ["am", "pm"] },
      tags: { type: "array", items: { type: "string" } },
    });
  });

  it("loads through initialize_tools_from_config under the single-string type of verl before 8c3bee471", async () => {
    const { dir, row } = await exportVerl();
    expect(
      runHarness<Outcome>("verl_harness.py", [dir], { row, calls: [], strict_types: true }).schema_error,
    ).toBeUndefined();
    // Regression: the schema as stored (["string", "null"]) is what made the tool config fail to load.
    const yaml = readFileSync(path.join(dir, "tool_config.yaml"), "utf8");
    writeFileSync(
      path.join(dir, "tool_config.yaml"),
      yaml.replace('"plan":{"type":"string"', '"plan":{"type":["string","null"]'),
    );
    expect(
      runHarness<Outcome>("verl_harness.py", [dir], { row, calls: [], strict_types: true }).schema_error,
    ).toMatch(/ValidationError/);
  });
});

describe("verl per-trajectory episode and compute_score", () => {
  it("the gold trajectory scores 1 with a fresh tool instance for every call", async () => {
    const { dir, row } = await exportVerl();
    const out = runHarness<Outcome>("verl_harness.py", [dir], { row, calls: CLINIC_GOLD });
    // Regression: booking fails ("no insurance on file") when each call starts from the initial state.
    expect(out.tool_texts?.[1]).toContain('"success": true');
    expect(out.score).toBe(1);
    expect(out.result).toMatchObject({ checks_passed: 2, checks_total: 2 });
  });

  it("two rollouts of one prompt running side by side keep separate episodes", async () => {
    const { dir, row } = await exportVerl();
    const out = runHarness<Outcome & { other_score: number }>("verl_harness.py", [dir], {
      row,
      calls: CLINIC_GOLD,
      interleave: CLINIC_GOLD.slice(0, 1),
    });
    expect([out.score, out.other_score]).toEqual([1, 0.5]);
  });

  it("a trajectory that calls no tool, or only half the work, scores below 1", async () => {
    const { dir, row } = await exportVerl();
    expect(runHarness<Outcome>("verl_harness.py", [dir], { row, calls: [] }).score).toBe(0);
    expect(runHarness<Outcome>("verl_harness.py", [dir], { row, calls: CLINIC_GOLD.slice(0, 1) }).score).toBe(
      0.5,
    );
  });

  it("rows carry what RLHFDataset and ToolAgentLoop read: tools_kwargs.create_kwargs, tool_selection, agent_name", async () => {
    const { row } = await exportVerl();
    expect(row).toMatchObject({
      agent_name: "tool_agent",
      data_source: "envstudio/clinic-scheduling",
      extra_info: {
        need_tools_kwargs: true,
        tool_selection: ["update_insurance", "book_appointment"],
        tools_kwargs: {
          book_appointment: { create_kwargs: { env_id: "clinic-scheduling", task_id: "clinic-01" } },
        },
      },
    });
    expect(JSON.parse(String((row?.reward_model as { ground_truth: string }).ground_truth))).toMatchObject({
      env_id: "clinic-scheduling",
      task_id: "clinic-01",
    });
  });
});

describe("verl before 9aaa5761a (0.7.0 and older) drops the episode: compute_score fails loudly", () => {
  const MIN_VERL = /needs verl >= 0\.7\.1 \(commit 9aaa5761a\)/;

  it("the gold trajectory raises, naming the minimum verl, instead of scoring the initial state", async () => {
    const { dir, row } = await exportVerl();
    const old = runHarness<Outcome>("verl_harness.py", [dir], {
      row,
      calls: CLINIC_GOLD,
      before_9aaa5761a: true,
      verl_version: "0.7.0",
    });
    expect(old.tool_texts?.[1]).toContain('"success": true');
    expect(old.score).toBeUndefined();
    expect(old.score_error).toMatch(/^RuntimeError: envstudio_verl: extra_info has no 'envstudio_episode'/);
    expect(old.score_error).toMatch(MIN_VERL);
    // A rollout that called no tool has nothing to lose: the initial state is its final state.
    expect(
      runHarness<Outcome>("verl_harness.py", [dir], { row, calls: [], before_9aaa5761a: true }).score,
    ).toBe(0);
  });

  it("compute_score run by python3 on an extra_info without the episode raises; with it, scores as before", async () => {
    const { dir, row } = await exportVerl();
    const call = (extraInfo: string) =>
      runPython(
        [
          "-c",
          [
            "import json, sys, envstudio_verl as v",
            "row = json.load(sys.stdin)",
            `extra = ${extraInfo}`,
            "out = v.compute_score(row['data_source'], 'done', row['reward_model']['ground_truth'], extra)",
            "print(json.dumps(out))",
          ].join("\n"),
        ],
        JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)),
        dir,
      );
    let failure: { status?: number; stderr?: string } = {};
    try {
      call("dict(row['extra_info'])");
    } catch (e) {
      failure = e as typeof failure;
    }
    expect(failure.status).toBe(1);
    expect(failure.stderr).toMatch(/RuntimeError: envstudio_verl: extra_info has no 'envstudio_episode'/);
    expect(failure.stderr).toMatch(MIN_VERL);
    // The episode the tools left after the gold calls (the booking needs the insurance set first).
    const played = [
      "(lambda e: [v.call_tool(e, c['name'], c['arguments']) for c in " +
        JSON.stringify(CLINIC_GOLD) +
        "] and e)",
      "(v.new_episode('clinic-scheduling', 'clinic-01'))",
    ].join("");
    const scored = JSON.parse(call(`{**row['extra_info'], v.STATE_KEY: ${played}}`)) as Outcome["result"];
    expect(scored).toEqual({ score: 1, checks_passed: 2, checks_total: 2 });
  });

  it("on a verl release that carries extra_fields, a rollout whose only call verl refused scores the initial state", async () => {
    const { dir, row } = await exportVerl();
    const refused = [{ name: "cancel_everything", arguments: {} }];
    const run = (verl_version?: string) =>
      runHarness<Outcome>("verl_harness.py", [dir], { row, calls: refused, verl_version });
    expect(run("0.7.1").score).toBe(0);
    expect(run("0.9.0.dev").score).toBe(0);
    // 0.8.0.dev builds come from before and after 9aaa5761a; an unknown verl cannot be trusted either.
    expect(run("0.8.0.dev").score_error).toMatch(MIN_VERL);
    expect(run(undefined).score_error).toMatch(MIN_VERL);
  });
});
