/**
 * The call ledger in Postgres: a request is recorded before it is sent, a retried write of its
 * outcome (after a lost acknowledgement) counts nothing twice, a call left PENDING becomes LOST
 * with its estimate in the step's and run's totals, and a late completion swaps the estimate for
 * the real usage.
 */
import { describe, expect, it } from "vitest";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { getLlmAccounting } from "./llm-accounting";
import { markRunCallsLost, markStepCallsLost } from "./lost-calls";
import { createStepRecorder } from "./step-recorder";

const t = useTestDatabase();

async function setup() {
  const project = await createTestProject(t.db);
  const run = await t.db.pipelineRun.create({
    data: { projectId: project.id, kind: "SKEL_BUILDER", name: "ledger", config: {}, input: {} },
  });
  const step = await t.db.pipelineStep.create({
    data: { runId: run.id, subjectKey: "env:0", stage: "state" },
  });
  return { run, step, recorder: createStepRecorder(t.db, { runId: run.id, stepId: step.id }) };
}

const start = {
  cacheKey: "chat:k",
  model: "m",
  purpose: "p",
  request: { q: 1 },
  estimate: { promptTokens: 100, completionTokens: 100 },
  estimatedCostUsd: 0.002,
  unpriced: false,
};
const outcome = {
  status: "ACCEPTED" as const,
  response: { content: "ok" },
  usage: { promptTokens: 40, completionTokens: 10 },
  costUsd: 0.0005,
  latencyMs: 12,
  errorMessage: null,
  rejection: null,
  attempts: [
    {
      attempt: 1,
      ok: false,
      code: "SERVER_ERROR",
      status: 500,
      message: "HTTP 500",
      waitMs: 5,
      latencyMs: 3,
    },
    { attempt: 2, ok: true, latencyMs: 9 },
  ],
};
const totals = async (runId: string, stepId: string) => {
  const [run, step] = await Promise.all([
    t.db.pipelineRun.findUniqueOrThrow({ where: { id: runId } }),
    t.db.pipelineStep.findUniqueOrThrow({ where: { id: stepId } }),
  ]);
  return {
    run: [run.promptTokens, run.completionTokens, Number(run.costUsd)],
    step: [step.promptTokens, step.completionTokens, Number(step.costUsd)],
  };
};

describe("the LLM call ledger", () => {
  it("records before sending, completes once even when the write is retried, and keeps every attempt", async () => {
    const { run, step, recorder } = await setup();
    const id = await recorder.begin(start);
    expect(await t.db.llmCall.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "PENDING",
      attempts: 1,
    });
    await recorder.retrying(id, 2, outcome.attempts.slice(0, 1));
    await recorder.finish(id, outcome);
    await recorder.finish(id, outcome); // a retried write after a lost acknowledgement
    expect(await totals(run.id, step.id)).toEqual({ run: [40, 10, 0.0005], step: [40, 10, 0.0005] });
    const call = await t.db.llmCall.findUniqueOrThrow({ where: { id } });
    expect(call).toMatchObject({ status: "ACCEPTED", attempts: 2, attemptLog: outcome.attempts });
    expect(await getLlmAccounting(t.db, run.id)).toMatchObject({
      requestsSent: 2,
      answersUsed: 1,
      errorResponses: 1,
      answersLost: 0,
    });
  });

  it("counts a call whose answer was never stored as lost, with its estimate, and swaps in the real usage if it completes late", async () => {
    const { run, step, recorder } = await setup();
    const id = await recorder.begin(start);
    await markStepCallsLost(t.db, step.id);
    await markRunCallsLost(t.db, run.id); // nothing left PENDING: no double count
    expect(await totals(run.id, step.id)).toEqual({ run: [100, 100, 0.002], step: [100, 100, 0.002] });
    expect(await getLlmAccounting(t.db, run.id)).toMatchObject({
      requestsSent: 1,
      answersLost: 1,
      lostCostUsd: 0.002,
      costUsd: 0.002,
    });
    await recorder.finish(id, { ...outcome, attempts: [{ attempt: 1, ok: true, latencyMs: 9 }] });
    expect(await totals(run.id, step.id)).toEqual({ run: [40, 10, 0.0005], step: [40, 10, 0.0005] });
    expect(await getLlmAccounting(t.db, run.id)).toMatchObject({
      requestsSent: 1,
      answersUsed: 1,
      answersLost: 0,
    });
  });
});
