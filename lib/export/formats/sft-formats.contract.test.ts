/**
 * SFT formats against their readers: LlamaFactory (hiyouga/LLaMA-Factory 7e09152), OpenAI chat
 * fine-tuning JSONL, and EnvScaler's SFT step (RUC-NLPIR/EnvScaler 87e6673, run in python3 through
 * lib/export/testing/upstream/envscaler_sft_harness.py).
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clinicInput, clinicScenario, PARALLEL_MESSAGES } from "../testing/clinic-fixture";
import { fixtureInput, TRAJECTORY_MESSAGES } from "../testing/fixture";
import { exportFixture, runHarness } from "../testing/run-python";
import { toShareGptRow, TOOL_RESPONSE_SEPARATOR } from "./llamafactory";
import { toOpenAiRow } from "./openai-jsonl";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const readJson = (dir: string, file: string) =>
  JSON.parse(readFileSync(path.join(dir, file), "utf8")) as unknown;

describe("LlamaFactory parallel tool calls (converter.py, formatter.py FunctionFormatter, template qwen3)", () => {
  const row = toShareGptRow(PARALLEL_MESSAGES, [])!;

  it("one function_call with a JSON list of {name, arguments} objects, which FunctionFormatter parses", () => {
    const call = row.conversations[1]!;
    expect(call.from).toBe("function_call");
    // FunctionFormatter._parse_functions: json.loads(value); a list = parallel calls; json.dumps(arguments).
    const parsed = JSON.parse(call.value) as { name: string; arguments: unknown }[];
    expect(parsed.map((c) => [c.name, JSON.stringify(c.arguments)])).toEqual([
      ["update_insurance", '{"patient_id":"p1","provider":"Acme"}'],
      ["book_appointment", '{"patient_id":"p1","slot":"pm","tags":["new"]}'],
    ]);
  });

  it("one observation whose results the <tool_response> slot renders as one block each", () => {
    const obs = row.conversations[2]!;
    expect(obs).toEqual({
      from: "observation",
      value: '{"success": true}\n</tool_response>\n<tool_response>\n{"success": true, "data": 1}',
    });
    const rendered = `<|im_start|>user\n<tool_response>\n${obs.value}\n</tool_response><|im_end|>\n`; // qwen3 format_observation
    expect(rendered.match(/<tool_response>\n(.*?)\n<\/tool_response>/g)).toHaveLength(2);
    // Regression: a JSON array of double-encoded strings in a single <tool_response>.
    expect(obs.value.startsWith("[")).toBe(false);
    expect(obs.value.split(TOOL_RESPONSE_SEPARATOR)).toEqual([
      '{"success": true}',
      '{"success": true, "data": 1}',
    ]);
  });

  it("keeps the converter's alternation: human/observation at even, gpt/function_call at odd positions", () => {
    expect(row.conversations.map((t) => t.from)).toEqual(["human", "function_call", "observation", "gpt"]);
  });
});

describe("OpenAI chat JSONL parallel_tool_calls", () => {
  it("is true on a row with two calls in one assistant message and false otherwise", () => {
    expect(toOpenAiRow(PARALLEL_MESSAGES, [])?.parallel_tool_calls).toBe(true);
    // Regression: hard-coded false even on parallel rows.
    expect(toOpenAiRow(TRAJECTORY_MESSAGES, [])?.parallel_tool_calls).toBe(false);
  });
});

describe("EnvScaler SFT trajectories and per-split scenario metadata", () => {
  it("writes one scenario file per split and no mixed file", async () => {
    const dir = await exportFixture("ENVSCALER_JSON", fixtureInput());
    dirs.push(dir);
    const train = readJson(dir, "scenario_metadata_train.json") as { split: string }[];
    const test = readJson(dir, "scenario_metadata_test.json") as { split: string }[];
    expect([train.map((s) => s.split), test.map((s) => s.split)]).toEqual([["train", "train"], ["test"]]);
    expect(() => readFileSync(path.join(dir, "scenario_metadata.json"))).toThrow();
  });

  it("step1 of EnvScaler's SFT scripts reads every exported record and keeps the reasoning", async () => {
    const dir = await exportFixture("ENVSCALER_JSON", fixtureInput());
    dirs.push(dir);
    type Item = {
      traj_type: string;
      task_info: Record<string, string>;
      steps: number;
      messages: { role: string; content: string }[];
    };
    const items = runHarness<Item[]>("envscaler_sft_harness.py", [path.join(dir, "sft_traj_train.json")], {});
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      traj_type: "fc",
      task_info: { env_id: "counter", task_id: "counter-01" },
      steps: 2,
    });
    expect(items[0]?.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(items[0]?.messages[2]?.content).toMatch(/^<think>\nI should add 3.\n<\/think>\n\n<tool_call>/);
  });

  it("skips a trajectory with parallel calls (its turns cannot be paired), counts it, and writes no empty sft_traj file", async () => {
    const dir = await exportFixture("ENVSCALER_JSON", clinicInput([clinicScenario("TRAIN")]));
    dirs.push(dir);
    expect(existsSync(path.join(dir, "sft_traj_train.json"))).toBe(false);
    expect(existsSync(path.join(dir, "sft_traj_test.json"))).toBe(false);
    expect(readJson(dir, "scenario_metadata_train.json")).toHaveLength(1);
    expect(readJson(dir, "envstudio_dataset.json")).toMatchObject({
      files: {
        sft_trajectories: {
          train: 0,
          test: 0,
          skipped: 1,
          note: "No SFT trajectories on the pinned versions: no sft_traj files were written; run rollouts to add them.",
        },
      },
    });
  });
});
