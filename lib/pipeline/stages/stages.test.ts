import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxRunner, type SandboxRunner } from "@/lib/sandbox";
import { createPipelineScript, withFaults } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, promptText, startFakeOpenAi } from "@/tests/fake-openai/server";
import { TEST_MODELS, createTestLlm } from "@/tests/fake-openai/test-llm";
import type { StageDeps } from "./deps";
import { assembleClass } from "./assemble-class";
import { selectTopics } from "./dedup-topics";
import { generateTestState } from "./generate-test-state";
import { inferOperations } from "./infer-operations";
import { inferState } from "./infer-state";
import { inferTopic, topicFromIdea } from "./infer-topic";
import { judgeTask } from "./judge-task";
import { runQualityCheck } from "./quality-check";
import { writeMethods } from "./write-methods";
import { writeStateCode } from "./write-state-code";

const library = loadSampleEnv("library-lending", {
  operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
});
let fake: FakeOpenAi;
let sandbox: SandboxRunner;
beforeAll(async () => {
  fake = await startFakeOpenAi({ script: createPipelineScript([library], { statelessWord: "weather" }) });
  sandbox = createSandboxRunner();
});
afterAll(async () => {
  await fake.close();
  await sandbox.close();
});

const deps = (): StageDeps => ({ llm: createTestLlm(fake.url).llm, sandbox, models: TEST_MODELS });
const must = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

describe("SkelBuilder stages against the scripted endpoint and the real sandbox", () => {
  it("judges tasks and infers a scored topic", async () => {
    const d = deps();
    expect(must(await judgeTask({ task: "Renew my library loan L004" }, d)).stateful).toBe(true);
    expect(must(await judgeTask({ task: "What is the weather?" }, d)).stateful).toBe(false);
    const topic = must(await inferTopic({ task: "Renew my library loan" }, d));
    expect(topic).toMatchObject({ summary: library.summary, usefulness: 8, modelability: 8 });
  });

  it("goes from an idea to a checked class with tools and a passing quality check", async () => {
    const d = deps();
    const topic = topicFromIdea("A library lending desk");
    const state = must(await inferState({ topic }, d));
    const stateCode = must(await writeStateCode({ topic, state }, d));
    expect(stateCode.className).toBe("LibraryLendingSystem");
    const { operations } = must(await inferOperations({ topic, state, stateCode }, d));
    const { methods, skipped } = must(await writeMethods({ topic, state, stateCode, operations }, d));
    expect(skipped).toEqual([]);
    const assembled = must(await assembleClass({ stateCode, methods, operations }, d));
    expect(assembled.tools.map((t) => (t as { function: { name: string } }).function.name).sort()).toEqual([
      "get_member",
      "list_member_loans",
      "pay_fines",
      "renew_loan",
    ]);
    const { initialState } = must(await generateTestState({ assembled, state }, d));
    const quality = must(
      await runQualityCheck(
        { topic, state, assembled, methods, initialState, rounds: 6, threshold: 0.85 },
        d,
      ),
    );
    expect(quality.probes).toHaveLength(6);
    expect(quality.probes.filter((p) => p.kind === "negative").length).toBe(2);
    expect(quality.notFailRate).toBe(1);
    expect(quality.passed).toBe(true);
  });

  it("re-asks when a method does not parse, and reports an operation it never gets right", async () => {
    const d = deps();
    const topic = topicFromIdea("A library lending desk");
    const state = must(await inferState({ topic }, d));
    const stateCode = must(await writeStateCode({ topic, state }, d));
    const { operations } = must(await inferOperations({ topic, state, stateCode }, d));
    let brokenOnce = false;
    fake.setScript(
      withFaults(createPipelineScript([library]), (body, stage) => {
        const text = promptText(body);
        if (stage === "methods" && text.includes("name: pay_fines"))
          return {
            content:
              "```python\ndef pay_fines(self, member_id: str, amount: float) -> dict:\n    return {\n```",
          };
        if (stage === "methods" && text.includes("name: renew_loan") && !brokenOnce) {
          brokenOnce = true;
          return { content: "```python\ndef renew_loan(self, loan_id):\n    if loan_id ==\n```" };
        }
        return null;
      }),
    );
    const { methods, skipped } = must(await writeMethods({ topic, state, stateCode, operations }, d));
    fake.setScript(createPipelineScript([library], { statelessWord: "weather" }));
    expect(methods.map((m) => m.name).sort()).toEqual(["get_member", "list_member_loans", "renew_loan"]);
    expect(skipped).toEqual([
      {
        name: "pay_fines",
        error: expect.stringMatching(/did not parse after 3 tries: SyntaxError/) as unknown,
      },
    ]);
  });

  it("records a tool that raises as an observation the judge sees", async () => {
    const d = deps();
    const topic = topicFromIdea("A library lending desk");
    const state = must(await inferState({ topic }, d));
    const stateCode = must(await writeStateCode({ topic, state }, d));
    const raising = {
      name: "get_member",
      code: 'def get_member(self, member_id: str) -> dict:\n    """Get."""\n    raise ValueError("boom")\n',
    };
    const operations = [{ name: "get_member", description: "get", type: "query" as const }];
    const assembled = must(await assembleClass({ stateCode, methods: [raising], operations }, d));
    fake.setScript(createPipelineScript([loadSampleEnv("library-lending", { operations: ["get_member"] })]));
    const quality = must(
      await runQualityCheck(
        {
          topic,
          state,
          assembled,
          methods: [raising],
          initialState: library.initialState,
          rounds: 2,
          threshold: 0.85,
        },
        d,
      ),
    );
    expect(quality.probes[0]?.observation).toMatchObject({ success: false });
    expect(JSON.stringify(quality.probes[0]?.observation)).toMatch(/boom/);
    fake.setScript(createPipelineScript([library], { statelessWord: "weather" }));
  });

  it("selects topics by score and merges near-duplicates (MinHash)", async () => {
    const t = (summary: string, u = 8, m = 8) => ({
      task: summary,
      summary,
      introduction: `${summary} keeps records and supports lookups and updates.`,
      usefulness: u,
      modelability: m,
      analysis: "",
    });
    const out = must(
      await selectTopics(
        {
          topics: [
            { key: "a", topic: t("Library lending system") },
            { key: "b", topic: t("Library lending system", 8, 9) },
            { key: "c", topic: t("Clinic appointment scheduling") },
            { key: "d", topic: t("Weather chat", 3, 2) },
          ],
          minUsefulness: 7,
          minModelability: 7,
          dedupThreshold: 0.6,
          embeddingDedupThreshold: 0.9,
        },
        deps(),
      ),
    );
    expect(out.method).toBe("minhash");
    expect(
      out.topics
        .filter((x) => x.kept)
        .map((x) => x.key)
        .sort(),
    ).toEqual(["b", "c"]);
    expect(out.topics.find((x) => x.key === "a")).toMatchObject({ clusterKey: "b", kept: false });
    expect(out.topics.find((x) => x.key === "d")).toMatchObject({ passedThreshold: false, kept: false });
  });
});
