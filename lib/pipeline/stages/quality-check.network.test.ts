// Network isolation, surface "quality check": the pipeline's dual-agent quality check (runQualityCheck, on
// the product's own sandbox runner, unjailed) with a scripted tester that proposes calling a tool
// carrying the network payload (tests/network-canary.ts) and a scripted judge. Each probe records
// the tool's normal observation with every route blocked, the check completes, and the loopback
// listener, checked after a wait for delayed payloads, saw no connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatBody, type FakeOpenAi, stageOf, startFakeOpenAi } from "@/tests/fake-openai/server";
import { TEST_MODELS, createTestLlm } from "@/tests/fake-openai/test-llm";
import {
  expectEveryRouteBlocked,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { runQualityCheck } from "./quality-check";

const canary = useCanary();
const sandbox = useUnjailedProductSandbox();
let fake: FakeOpenAi;

/** Tester: reach_out, add, reach_out (the recorded requests include this one); judge: PASS. */
function script(body: ChatBody) {
  if (stageOf(body) === "judge_call")
    return { content: JSON.stringify({ analysis: "ok", verdict: "PASS", error_reason: "No error" }) };
  const round = fake.chatRequests().filter((r) => stageOf(r.body as ChatBody) === "tester").length;
  const call = round === 2 ? { tool: "add", arguments: { amount: 1 } } : { tool: "reach_out", arguments: {} };
  return {
    toolCalls: [
      { name: "propose_test_call", arguments: { thought: "probe", case_type: "positive", ...call } },
    ],
  };
}

beforeAll(async () => {
  fake = await startFakeOpenAi({ script });
});
afterAll(() => fake.close());

describe("quality check: network payload (host not jailed)", () => {
  it("grades every probe of the payload tool, every route blocked, and the listener sees no connection", async () => {
    const source = payloadEnvironment(canary.port);
    const tools = await sandbox().extractTools(source, "Counter");
    if (!tools.ok) throw new Error(tools.error.message);
    const topic = {
      task: "Count things",
      summary: "Counter",
      introduction: "A counter that can look things up.",
      usefulness: 8,
      modelability: 8,
      analysis: "",
    };
    const state = {
      analysis: "",
      entities: [{ entity: "counter", attributes: ["count"], description: "the count" }],
      rules: ["count only grows"],
    };
    const assembled = {
      className: "Counter",
      source,
      tools: tools.value,
      publicMethods: ["add", "reach_out"],
    };
    const deps = { llm: createTestLlm(fake.url).llm, sandbox: sandbox(), models: TEST_MODELS };
    const quality = await runQualityCheck(
      { topic, state, assembled, methods: [], initialState: { count: 0 }, rounds: 3, threshold: 0.85 },
      deps,
    );
    if (!quality.ok) throw new Error(quality.error.message);
    expect(quality.value).toMatchObject({ passed: true, passCount: 3, roundErrors: [] });
    expect(quality.value.probes.map((p) => p.toolName)).toEqual(["reach_out", "add", "reach_out"]);
    for (const probe of quality.value.probes.filter((p) => p.toolName === "reach_out")) {
      expect(probe.observation).toMatchObject({ success: true });
      expectEveryRouteBlocked((probe.observation as { data: unknown }).data);
    }
    expect(quality.value.probes[1]!.observation).toEqual({ success: true, data: 1 });
    expect(await canary.settle()).toBe(0);
  });
});
