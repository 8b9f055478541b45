import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSamples } from "@/prisma/seed/load-samples";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { createSandboxRunner } from "../../sandbox";
import { dedupTasks } from "./dedup-tasks";
import type { EnvironmentContext } from "./deps";
import { verifyCheckFunc } from "./generate-check-func";
import { parseChecklist } from "./generate-checklist";
import { generateInitialState, stateKeysOf, validateInitialState } from "./generate-initial-state";
import { generateTask } from "./generate-task";

const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending")!;
const state = sample.scenarios[0]!.init_config;
const env: EnvironmentContext = {
  source: sample.source,
  className: sample.meta.env_class_name,
  introduction: sample.meta.environment_introduction,
  stateSchema: sample.meta.state_space_definition,
  rules: sample.meta.constraints_rules,
  operations: sample.meta.operation_list,
  tools: [],
};
let fake: FakeOpenAi;
beforeAll(async () => void (fake = await startFakeOpenAi()));
afterAll(async () => {
  await fake.close();
  await runner.close();
});

describe("ScenGenerator stages", () => {
  it("accepts only initial states whose keys are the class's state and that load", async () => {
    const keys = await stateKeysOf(env, { sandbox: runner });
    if (!keys.ok) throw new Error(keys.error);
    expect(keys.value).toEqual(Object.keys(state).sort());
    expect((await validateInitialState(state, env, keys.value, { sandbox: runner })).ok).toBe(true);
    const extra = await validateInitialState({ ...state, robots: {} }, env, keys.value, { sandbox: runner });
    expect(!extra.ok && extra.error).toContain("unknown: robots");
    const { members: _m, ...rest } = state;
    const missing = await validateInitialState(rest, env, keys.value, { sandbox: runner });
    expect(!missing.ok && missing.error).toContain("missing: members");
  });

  it("re-asks for a state that is not JSON, then keeps the valid one", async () => {
    let n = 0;
    fake.setScript(() =>
      n++ === 0 ? { content: "here you go: {members: oops" } : { content: JSON.stringify(state) },
    );
    const { llm } = createTestLlm(fake.url);
    const result = await generateInitialState(env, { llm, sandbox: runner, model: "m" });
    expect(result.ok && result.value).toEqual(state);
    expect(n).toBe(2);
  });

  it("fails a task stage whose answers stay too short, with the reason", async () => {
    fake.setScript(() => ({ content: "# Analysis\nx\n# Task\nReturn the book." }));
    const { llm } = createTestLlm(fake.url);
    const result = await generateTask(
      { env, initialState: state, minWords: 30 },
      { llm, sandbox: runner, model: "m" },
    );
    expect(!result.ok && result.error).toMatchObject({ code: "PARSE_FAILED", retryable: false });
    expect(!result.ok && result.error.message).toContain("write at least 30");
  });

  it("parses a Has-checklist and refuses other items, empty lists and missing sections", () => {
    expect(parseChecklist("# Analysis\nx\n# CheckList\n- Has A been done?\n- Has B?\n")).toEqual({
      ok: true,
      value: ["Has A been done?", "Has B?"],
    });
    expect(parseChecklist("# CheckList\n- Was A done?").ok).toBe(false);
    expect(parseChecklist("# CheckList\nnothing").ok).toBe(false);
    expect(parseChecklist("- Has A?").ok).toBe(false);
  });

  it("checks a check function's signature and behaviour in the sandbox", async () => {
    const good =
      "def check_func(final_state):\n    return final_state.get('members') == initial_state.get('members')\n";
    expect((await verifyCheckFunc(good, state, { sandbox: runner })).ok).toBe(true);
    const wrongName = await verifyCheckFunc("def check(state):\n    return True\n", state, {
      sandbox: runner,
    });
    expect(!wrongName.ok && wrongName.error).toContain("def check_func(final_state)");
    const raising = await verifyCheckFunc(
      "def check_func(final_state):\n    return final_state['nope']\n",
      state,
      { sandbox: runner },
    );
    expect(!raising.ok && raising.error).toContain("KeyError");
    const notBool = await verifyCheckFunc("def check_func(final_state):\n    return 1\n", state, {
      sandbox: runner,
    });
    expect(!notBool.ok && notBool.error).toContain("bool");
    const syntax = await verifyCheckFunc("def check_func(final_state):\n    return (\n", state, {
      sandbox: runner,
    });
    expect(syntax.ok).toBe(false);
  });

  it("drops near-duplicate tasks lexically and with embeddings", async () => {
    const a = sample.scenarios[0]!.task;
    const b = sample.scenarios[1]!.task;
    const reworded = a.replace("Alice Moreno", "alice moreno").replace(/\.$/, "!");
    const lexical = await dedupTasks(
      [
        { index: 0, task: reworded },
        { index: 1, task: b },
        { index: 2, task: b },
      ],
      [{ id: "old", task: a }],
      { jaccardThreshold: 0.8, embedding: null },
    );
    expect(lexical.ok && lexical.value.map((v) => [v.keep, v.duplicateOf])).toEqual([
      [false, "old"],
      [true, null],
      [false, "candidate:1"],
    ]);
    const { llm } = createTestLlm(fake.url);
    const embedded = await dedupTasks(
      [
        { index: 0, task: reworded },
        { index: 1, task: b },
      ],
      [{ id: "old", task: a }],
      { jaccardThreshold: 0.8, embedding: { llm, model: "m-embed", threshold: 0.95 } },
    );
    expect(embedded.ok && embedded.value.map((v) => v.keep)).toEqual([false, true]);
  });
});
