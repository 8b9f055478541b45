/**
 * Cost accounting with priced models, through the real job path: the scripted endpoint reports
 * usage per stage, a price table comes from settings (LLM_PRICES) and is snapshotted into the run,
 * and every recorded cost — per call, per step, per run — must be exact, also for answers the
 * endpoint billed but that could not be used (HTTP 200 with `choices: []`). A model without a price
 * is named in the run's accounting. Then a cost budget must stop a run cleanly once crossed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@/lib/db";
import type { RunningWorker } from "@/lib/jobs/worker";
import { readLlmConfig } from "@/lib/llm";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import {
  type ChatBody,
  type FakeOpenAi,
  type RecordedRequest,
  type Script,
  promptText,
  stageOf,
  startFakeOpenAi,
} from "@/tests/fake-openai/server";
import { startPipelineWorker, useFakeEndpoint, waitForRun } from "@/tests/pipeline-harness";
import { buildRunConfig, type RunConfigOverrides } from "../run-config";
import { createRun } from "./create-run";

const t = useTestDatabase();
const library = loadSampleEnv("library-lending", {
  operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
});
const clinic = loadSampleEnv("clinic-scheduling");

/** USD per million tokens. m-embed is priced like text-embedding-3-small. */
const PRICES = {
  "m-main": { input: 2.5, output: 10 },
  "m-check": { input: 0.15, output: 0.6 },
  "m-embed": { input: 0.02, output: 0 },
};
type Model = keyof typeof PRICES;
/** Odd token counts per stage: most costs need more than six decimals to be exact. */
const USAGE: Record<string, { prompt: number; completion: number }> = {
  judge: { prompt: 812, completion: 37 },
  topic: { prompt: 903, completion: 121 },
  state: { prompt: 1411, completion: 388 },
  state_code: { prompt: 1630, completion: 912 },
  operations: { prompt: 1502, completion: 433 },
  methods: { prompt: 2117, completion: 517 },
  test_state: { prompt: 2990, completion: 845 },
  tester: { prompt: 1877, completion: 63 },
  judge_call: { prompt: 2233, completion: 97 },
};

const base = createPipelineScript([library, clinic], {
  pick: (text) => (/clinic/i.test(text) ? clinic : library),
  statelessWord: "weather",
});
const priced: Script = async (body, index) => {
  const reply = await base(body, index);
  return "status" in reply || "hang" in reply || "raw" in reply
    ? reply
    : { ...reply, usage: USAGE[stageOf(body) ?? ""] };
};
/** The first `count` requests matching `when` get a billed 200 without choices, then `priced` answers. */
function emptyFirst(when: (body: ChatBody) => boolean, count: number): Script {
  let left = count;
  return (body, index) =>
    when(body) && left-- > 0 ? { noChoices: true, usage: USAGE[stageOf(body) ?? ""] } : priced(body, index);
}

/** Exact cost in picodollars (1e-12 USD): integers, so sums compare exactly. */
const pico = (model: string, usage: { prompt: number; completion: number }) => {
  const price = PRICES[model as Model];
  return usage.prompt * Math.round(price.input * 1e6) + usage.completion * Math.round(price.output * 1e6);
};
const picoOf = (usd: Prisma.Decimal) => usd.mul(1e12).toNumber();
/** What the endpoint billed: every answered request since `from`. */
const billed = (requests: RecordedRequest[]) =>
  requests.reduce((sum, r) => sum + (r.usage ? pico((r.body as { model: string }).model, r.usage) : 0), 0);

let fake: FakeOpenAi;
let worker: RunningWorker;

beforeAll(async () => {
  fake = await startFakeOpenAi({ script: priced });
  useFakeEndpoint(fake.url);
  process.env.LLM_PRICES = JSON.stringify(PRICES);
  worker = await startPipelineWorker(t.db, t.url);
});
afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

/** The run config as the studio builds it: defaults and the price table from settings. */
function pricedRunConfig(overrides: RunConfigOverrides) {
  const settings = readLlmConfig();
  return buildRunConfig(
    { defaultModel: "m-main", checkModel: "m-check", embeddingModel: "m-embed" },
    { qualityRounds: 4, ...overrides },
    settings.prices,
  );
}

describe("cost accounting with priced models", () => {
  it("records the exact cost of every call, and sums it per step and per run", async () => {
    const project = await createTestProject(t.db);
    const from = fake.requests.length;
    const tasks = [
      "Renew loan L004 for member M001 at the library desk",
      "Book a clinic appointment with Dr. Chen for patient P002",
      "What's the weather in Paris?",
    ];
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "tasks", tasks },
      config: pricedRunConfig({}),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.failures).toEqual([]);
    expect(done.environments).toHaveLength(2);
    const stored = await t.db.pipelineRun.findUniqueOrThrow({
      where: { id: run.id },
      include: { steps: { include: { llmCalls: true } } },
    });
    expect((stored.config as { prices: unknown }).prices).toMatchObject(PRICES);

    const calls = stored.steps.flatMap((s) => s.llmCalls);
    expect(new Set(calls.map((c) => c.model))).toEqual(new Set(["m-main", "m-check", "m-embed"]));
    for (const call of calls) {
      const usage = { prompt: call.promptTokens, completion: call.completionTokens };
      const stage = /\[stage:([a-z_]+)\]/.exec(JSON.stringify(call.request))?.[1];
      // Usage is recorded as the endpoint reported it (embeddings: 10 tokens per input).
      expect(usage).toEqual(
        call.purpose === "embeddings" ? { prompt: 20, completion: 0 } : USAGE[stage ?? ""],
      );
      expect({ purpose: call.purpose, pico: picoOf(call.costUsd) }).toEqual({
        purpose: call.purpose,
        pico: call.cached ? 0 : pico(call.model, usage),
      });
    }
    // A cheap call keeps its cost: 20 tokens at $0.02/M is $0.0000004, not $0.
    const embedding = calls.find((c) => c.purpose === "embeddings");
    expect(embedding?.costUsd.toFixed(10)).toBe("0.0000004000");

    for (const step of stored.steps) {
      const paid = step.llmCalls.filter((c) => !c.cached);
      expect({
        step: step.stage,
        pico: picoOf(step.costUsd),
        prompt: step.promptTokens,
        completion: step.completionTokens,
      }).toEqual({
        step: step.stage,
        pico: step.llmCalls.reduce((sum, c) => sum + picoOf(c.costUsd), 0),
        prompt: paid.reduce((sum, c) => sum + c.promptTokens, 0),
        completion: paid.reduce((sum, c) => sum + c.completionTokens, 0),
      });
    }
    const runPico = picoOf(stored.costUsd);
    expect(runPico).toBe(stored.steps.reduce((sum, s) => sum + picoOf(s.costUsd), 0));
    // And the run's total is exactly what the endpoint billed for the requests it answered.
    expect(runPico).toBe(billed(fake.requests.slice(from)));
    expect(runPico).toBeGreaterThan(0);
    expect(done.run.costUsd).toBe(runPico / 1e12);
  });

  it("counts every billed answer without choices: retried ones, and a call that failed after five", async () => {
    const project = await createTestProject(t.db);
    // Replies cached by the runs above would spare the very requests this test scripts.
    await t.db.llmCacheEntry.deleteMany({});
    const from = fake.requests.length;
    const weather = (body: ChatBody) => stageOf(body) === "judge" && /weather/.test(promptText(body));
    const noChoicesThenPriced = [emptyFirst(weather, 5), emptyFirst((b) => stageOf(b) === "state", 2)];
    fake.setScript((body, index) =>
      (weather(body) ? noChoicesThenPriced[0]! : noChoicesThenPriced[1]!)(body, index),
    );
    try {
      const run = await createRun(t.db, worker.queue, {
        projectId: project.id,
        input: { kind: "tasks", tasks: ["Renew loan L004 for member M001", "What's the weather in Paris?"] },
        config: pricedRunConfig({}),
      });
      const done = await waitForRun(t.db, run.id);
      expect(done.run.status).toBe("SUCCEEDED");
      const calls = await t.db.llmCall.findMany({ where: { runId: run.id, cached: false } });
      // The weather judge: five billed answers without choices, then the job's retry is answered.
      const failed = calls.filter((c) => c.status === "FAILED");
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({
        attempts: 5,
        promptTokens: 5 * USAGE.judge!.prompt,
        completionTokens: 5 * USAGE.judge!.completion,
      });
      expect(picoOf(failed[0]!.costUsd)).toBe(5 * pico(failed[0]!.model, USAGE.judge!));
      const state = calls.find((c) => c.status !== "FAILED" && c.attempts > 1);
      expect(state).toMatchObject({
        status: "ACCEPTED",
        promptTokens: 3 * USAGE.state!.prompt,
        completionTokens: 3 * USAGE.state!.completion,
      });
      expect(picoOf(state!.costUsd)).toBe(3 * pico(state!.model, USAGE.state!));
      // The run's total is what the endpoint billed, the answers without choices included.
      const stored = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } });
      expect(picoOf(stored.costUsd)).toBe(billed(fake.requests.slice(from)));
      expect(done.llm.unpricedModels).toEqual([]);
    } finally {
      fake.setScript(priced);
    }
  });

  it("names a model without a price in the run's accounting, and counts its calls at $0", async () => {
    const project = await createTestProject(t.db);
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["A library lending desk checked by an unpriced model"] },
      config: pricedRunConfig({ models: { tester: "m-unpriced", judge: "m-unpriced" } }),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.llm.unpricedModels).toEqual(["m-unpriced"]);
    const calls = await t.db.llmCall.findMany({ where: { runId: run.id, cached: false } });
    expect(calls.filter((c) => c.unpriced).every((c) => c.model === "m-unpriced" && c.costUsd.isZero())).toBe(
      true,
    );
    expect(calls.some((c) => c.unpriced)).toBe(true);
    expect(calls.filter((c) => !c.unpriced).every((c) => c.costUsd.gt(0))).toBe(true);
  });

  it("stops a run cleanly once its cost budget is crossed", async () => {
    const project = await createTestProject(t.db);
    const usd = (model: Model, stage: string) => pico(model, USAGE[stage]!) / 1e12;
    // Past every stage that calls the model in parallel (the methods), within the serial tail:
    // test state, then tester and judge in turns. Each call is checked against the budget first.
    const throughMethods =
      usd("m-main", "state") +
      usd("m-main", "state_code") +
      usd("m-main", "operations") +
      4 * usd("m-main", "methods");
    const maxCostUsd = Number(
      (throughMethods + 3.5 * (usd("m-check", "tester") + usd("m-check", "judge_call"))).toFixed(6),
    );
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["A library lending desk on a cost budget"] },
      config: pricedRunConfig({ maxCostUsd, qualityRounds: 30 }),
    });
    const done = await waitForRun(t.db, run.id);

    const cost = done.run.costUsd;
    const stored = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(done.run.status).toBe("BUDGET_EXCEEDED");
    expect(done.run.errorMessage).toBe(
      `cost budget spent ($${cost.toFixed(4)} of $${maxCostUsd.toFixed(4)})`,
    );
    expect(done.run.finishedAt).not.toBeNull();
    expect(done.stages.every((s) => s.pending === 0 && s.running === 0)).toBe(true);
    expect(done.failures).toEqual([
      expect.objectContaining({
        stage: "quality",
        status: "FAILED",
        errorCode: "BUDGET_EXCEEDED",
        retryable: false,
      }),
    ]);
    expect(done.environments.map((e) => e.status)).toEqual(["FAILED"]);
    // The call that crossed the budget was the last one paid for: the run spent at least its budget,
    // and had not reached it before that call.
    const paid = await t.db.llmCall.findMany({
      where: { runId: run.id, cached: false, errorMessage: null },
      orderBy: { createdAt: "asc" },
    });
    const last = paid.at(-1)!;
    expect(stored.costUsd.gte(maxCostUsd)).toBe(true);
    expect(stored.costUsd.minus(last.costUsd).lt(maxCostUsd)).toBe(true);
    expect(await t.db.qualityCheck.count({ where: { runId: run.id } })).toBe(0);
  });
});
