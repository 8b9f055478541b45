// Issue 11, surface "rollout": a scripted agent (tests/fake-openai) calls a tool carrying the
// network payload (tests/network-canary.ts) in runRollout, on the product's own sandbox runner,
// unjailed; the scenario's check carries the payload too. The rollout completes with reward 1
// (the check ran to its end and saw every route blocked), the tool step's observation shows every
// route blocked, and the loopback listener, checked after a wait for delayed payloads, saw no
// connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentReply } from "@/tests/fake-openai/rollout-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { expectEveryRouteBlocked, payloadCheck, payloadEnvironment, useCanary, useUnjailedProductSandbox } from "@/tests/network-canary";
import { runRollout } from "./agent-loop";

const canary = useCanary();
const sandbox = useUnjailedProductSandbox();
let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

describe("rollout: network payload (host not jailed)", () => {
  it("plays the episode to reward 1 with every route blocked, and the listener sees no connection", async () => {
    const source = payloadEnvironment(canary.port);
    const tools = await sandbox().extractTools(source, "Counter");
    if (!tools.ok) throw new Error(tools.error.message);
    fake.setScript((body) => agentReply(body, [{ name: "reach_out", arguments: {} }, { name: "add", arguments: { amount: 1 } }]));
    const result = await runRollout(
      {
        mode: "non_conversational", task: "Look it up, then add one.", initialState: { count: 0 }, model: "m-agent",
        env: { source, className: "Counter", tools: tools.value, introduction: "A counter.", rules: [] },
        checks: [payloadCheck(canary.port, "final_state['count'] == initial_state['count'] + 1")],
        policy: { onTruncated: "zero", onCrash: "zero" }, cacheSalt: "network",
      },
      { llm: createTestLlm(fake.url).llm, sandbox: sandbox() },
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ endReason: "agent_replied", reward: 1, finalState: { count: 1 }, checkResults: [{ passed: true }] });
    const [reach, add] = result.value.steps;
    expect(reach).toMatchObject({ type: "tool_call", name: "reach_out", isError: false, observation: { success: true } });
    expectEveryRouteBlocked((reach as { observation: { data: unknown } }).observation.data);
    expect(add).toMatchObject({ type: "tool_call", name: "add", isError: false, observation: { success: true, data: 1 } });
    expect(await canary.settle()).toBe(0);
  });
});
