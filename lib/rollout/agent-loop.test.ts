import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSamples } from "@/prisma/seed/load-samples";
import { agentReply, INVALID_CALLS, isAgent, isUserSim, userReply } from "@/tests/fake-openai/rollout-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { createSandboxRunner } from "../sandbox";
import { type RolloutInput, runRollout } from "./agent-loop";
import { SftFilterSchema } from "./rollout.schema";
import { applySftFilter } from "./sft-filter";

const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending")!;
const scenario = sample.scenarios[0]!;
const gold = scenario.gold_calls ?? [];
let fake: FakeOpenAi;
let tools: RolloutInput["env"]["tools"];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  const extracted = await runner.extractTools(sample.source, sample.meta.env_class_name);
  if (!extracted.ok) throw new Error(extracted.error.message);
  tools = extracted.value;
});
afterAll(async () => {
  await fake.close();
  await runner.close();
});

function input(overrides: Partial<RolloutInput> = {}): RolloutInput {
  return {
    mode: "non_conversational",
    task: scenario.task,
    initialState: scenario.init_config,
    model: "m-agent",
    env: {
      source: sample.source,
      className: sample.meta.env_class_name,
      tools,
      introduction: sample.meta.environment_introduction,
      rules: sample.meta.constraints_rules,
    },
    checks: scenario.checklist_with_func.map((c) => c.check_func),
    policy: { onTruncated: "zero", onCrash: "zero" },
    cacheSalt: `t${Math.random()}`,
    ...overrides,
  };
}

describe("agent loop", () => {
  it("plays a scenario to the end and earns the full reward", async () => {
    fake.setScript((body) => agentReply(body, gold));
    const { llm } = createTestLlm(fake.url);
    const result = await runRollout(input(), { llm, sandbox: runner });
    if (!result.ok) throw new Error(result.error.message);
    const r = result.value;
    expect(r.endReason).toBe("agent_replied");
    expect(r.reward).toBe(1);
    expect(r.checkResults).toHaveLength(scenario.checklist_with_func.length);
    expect(r.steps.filter((s) => s.type === "tool_call")).toHaveLength(gold.length);
    // Tool results answer their call ids with role "tool", as the chat API requires.
    const calls = r.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
    expect(
      r.messages.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.toolCallId : "")),
    ).toEqual(calls.map((c) => c.id));
    expect(r.steps.some((s) => s.type === "tool_call" && s.diff.changed.length > 0)).toBe(true);
    expect(applySftFilter({ mode: "non_conversational", ...r }, SftFilterSchema.parse({})).pass).toBe(true);
  });

  it("turns invalid tool calls into error observations and goes on", async () => {
    fake.setScript((body) => agentReply(body, [...INVALID_CALLS, ...gold]));
    const { llm } = createTestLlm(fake.url);
    const result = await runRollout(input(), { llm, sandbox: runner });
    if (!result.ok) throw new Error(result.error.message);
    const [unknown, unparsable, wrong] = result.value.steps;
    expect(unknown).toMatchObject({ type: "tool_call", isError: true, errorKind: "unknown_tool" });
    expect(unparsable).toMatchObject({
      type: "tool_call",
      isError: true,
      errorKind: "bad_arguments",
      arguments: null,
    });
    expect(wrong).toMatchObject({ type: "tool_call", isError: true, errorKind: "bad_arguments" });
    expect(result.value.reward).toBe(1);
    const verdict = applySftFilter(
      { mode: "non_conversational", ...result.value },
      SftFilterSchema.parse({}),
    );
    expect(verdict.pass).toBe(false);
    expect(verdict.reasons).toContain("format: 3 invalid tool call(s)");
  });

  it("stops at the step limit with the configured policy, keeping the raw score", async () => {
    fake.setScript((body) => agentReply(body, [...gold, ...gold, ...gold]));
    const { llm } = createTestLlm(fake.url);
    const zero = await runRollout(input({ maxSteps: gold.length }), { llm, sandbox: runner });
    if (!zero.ok) throw new Error(zero.error.message);
    expect(zero.value).toMatchObject({
      endReason: "step_limit",
      reward: 0,
      score: 1,
      stepCount: gold.length,
    });
    const scored = await runRollout(
      input({ maxSteps: gold.length, policy: { onTruncated: "score", onCrash: "zero" } }),
      { llm, sandbox: runner },
    );
    expect(scored.ok && scored.value.reward).toBe(1);
  });

  it("runs a conversation until the simulated user sends the stop token", async () => {
    fake.setScript((body) =>
      isUserSim(body)
        ? userReply(body, scenario.task)
        : isAgent(body)
          ? agentReply(body, gold, "All done, the task is completed.")
          : { content: "?" },
    );
    const { llm } = createTestLlm(fake.url);
    const result = await runRollout(input({ mode: "conversational", userModel: "m-user" }), {
      llm,
      sandbox: runner,
    });
    if (!result.ok) throw new Error(result.error.message);
    const r = result.value;
    expect(r.endReason).toBe("user_stopped");
    expect(r.reward).toBe(1);
    expect(r.messages[1]).toEqual({ role: "user", content: scenario.task });
    expect(r.steps.at(-1)).toMatchObject({ type: "message", userReply: "###STOP###" });
    expect(r.userMessages.some((m) => m.role === "user" && m.content.startsWith("[Agent] Hi!"))).toBe(true);
    const userModels = fake
      .chatRequests()
      .filter((q) => isUserSim(q.body as never))
      .map((q) => (q.body as { model: string }).model);
    expect(new Set(userModels)).toEqual(new Set(["m-user"]));
  });

  it("runs more rollouts at once than there are sandbox workers", async () => {
    const single = createSandboxRunner({ poolSize: 1, spareWorkers: 0, leaseTimeoutMs: 30_000 });
    try {
      fake.setScript((body) => agentReply(body, gold));
      const { llm } = createTestLlm(fake.url);
      const results = await Promise.all(
        [1, 2].map((i) => runRollout(input({ cacheSalt: `pool${i}` }), { llm, sandbox: single })),
      );
      expect(results.map((r) => r.ok && r.value.reward)).toEqual([1, 1]);
    } finally {
      await single.close();
    }
  });

  it("fails the rollout (retryably) when the agent endpoint is down", async () => {
    fake.setScript(() => ({ status: 503 }));
    const { llm } = createTestLlm(fake.url);
    const result = await runRollout(input(), { llm, sandbox: runner });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ source: "agent", retryable: true });
  });
});
