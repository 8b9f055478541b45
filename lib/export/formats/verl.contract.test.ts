/**
 * verl contract (verl-project/verl 1dda039c): the export loads through the tool registry, keeps
 * one episode per trajectory through ToolAgentLoop's create → execute → release per call, and its
 * compute_score scores the final state. The verl side is lib/export/testing/upstream/verl_harness.py,
 * a re-implementation of the named upstream files (verl cannot be installed here).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { CLINIC_GOLD, CLINIC_TOOLS, clinicInput } from "../testing/clinic-fixture";
import { exportFixture, readParquet, runHarness } from "../testing/run-python";
import { singleTypeTool } from "./single-type-schema";

type Outcome = {
  score?: number;
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
