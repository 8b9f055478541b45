/**
 * Resume after a killed worker: a worker process is SIGKILLed in the middle of a rollout run; a
 * second worker finishes it without redoing finished rollouts or paying again for the turns the
 * dead one already got answers for (they come from the Postgres LLM cache).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { createScenarioScript } from "@/tests/fake-openai/scenario-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { useTestDatabase } from "@/tests/db";
import { executeRolloutRun, enqueueRolloutRun } from "./rollout-run";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending")!;
let fake: FakeOpenAi;
let child: ChildProcess | null = null;

beforeAll(async () => {
  fake = await startFakeOpenAi({ latencyMs: 80 });
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await fake?.close();
  await runner.close();
});

const waitFor = async (what: () => Promise<boolean>, timeoutMs = 120_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("rollout run resume", () => {
  it("finishes a run whose worker was killed mid-way, without redoing or re-paying finished work", async () => {
    const project = await createTestProject(t.db, "resume");
    await seedSamples(t.db, {
      projectId: project.id,
      samples: [sample],
      toolsFor: async (s) => {
        const r = await runner.extractTools(s.source, s.meta.env_class_name);
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      },
    });
    const scenarios = await t.db.scenario.findMany({
      where: { environment: { projectId: project.id } },
      orderBy: { externalId: "asc" },
    });
    fake.setScript(createScenarioScript(sample));
    const noSend = () => Promise.resolve(null);
    const run = await enqueueRolloutRun(t.db, noSend, {
      projectId: project.id,
      scenarioIds: scenarios.map((s) => s.id),
      config: { models: ["m-agent"], k: 2, concurrency: 1 },
    });

    child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/child/rollout-worker.ts", t.url, fake.url, run.id],
      { stdio: "ignore" },
    );
    // Kill once two rollouts are stored and the third is mid-way (some of its turns answered).
    await waitFor(
      async () =>
        (await t.db.trajectory.count({ where: { runId: run.id } })) >= 2 &&
        (await t.db.llmCall.count({ where: { runId: run.id } })) >= 2 * 13 + 3,
    );
    child.kill("SIGKILL");
    await new Promise((r) => child!.once("exit", r));
    const before = await t.db.trajectory.findMany({
      where: { runId: run.id },
      select: { id: true, scenarioId: true, rolloutIndex: true },
    });
    const interrupted = await t.db.pipelineStep.findMany({ where: { runId: run.id, status: "RUNNING" } });
    expect(interrupted.length).toBe(1);
    const requestsBefore = fake.chatRequests().length;

    await executeRolloutRun(t.db, run.id, {
      sandbox: runner,
      llmFor: createRunLlmFactory(t.db, { baseUrl: fake.url, apiKey: "test" }),
    });

    const after = await t.db.trajectory.findMany({
      where: { runId: run.id },
      orderBy: [{ scenarioId: "asc" }, { rolloutIndex: "asc" }],
    });
    expect(after).toHaveLength(scenarios.length * 2);
    expect(after.every((tr) => tr.reward === 1)).toBe(true);
    for (const b of before)
      expect(after.find((a) => a.scenarioId === b.scenarioId && a.rolloutIndex === b.rolloutIndex)?.id).toBe(
        b.id,
      );
    const finished = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(finished.status).toBe("SUCCEEDED");
    // The resumed rollout replayed its answered turns from the cache: fewer new requests than turns.
    const resumedTurns = await t.db.llmCall.count({ where: { stepId: interrupted[0]!.id } });
    const cachedTurns = await t.db.llmCall.count({ where: { stepId: interrupted[0]!.id, cached: true } });
    expect(cachedTurns).toBeGreaterThan(0);
    const redone = after.filter((a) => !before.some((b) => b.id === a.id));
    const turns = redone.reduce((sum, tr) => sum + tr.stepCount, 0);
    expect(fake.chatRequests().length - requestsBefore).toBe(turns - cachedTurns);
    expect(resumedTurns).toBeGreaterThan(cachedTurns);
    expect((await t.db.pipelineStep.findUniqueOrThrow({ where: { id: interrupted[0]!.id } })).attempt).toBe(
      2,
    );
  }, 300_000);
});
