/**
 * Generation → proof → rollout → reward for a sample environment, against real Postgres, the real
 * sandbox and the scripted OpenAI-compatible server (the only fake).
 */
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBoss } from "@/lib/jobs/boss";
import { jobQueueOn } from "@/lib/jobs/server/send-job";
import { executeRolloutRun, enqueueRolloutRun } from "@/lib/rollout/server/rollout-run";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { createScenarioScript } from "@/tests/fake-openai/scenario-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { useTestDatabase } from "@/tests/db";
import { enqueueGenerationRun, executeGenerationRun } from "./generation-run";
import { executeProofRun, ProofRunInputSchema } from "./proof-run";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending")!;
let fake: FakeOpenAi;
let boss: PgBoss;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  boss = await startBoss(t.url, { supervise: false });
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await fake?.close();
  await runner.close();
});

async function seedLibrary() {
  const project = await createTestProject(t.db, "scen");
  await seedSamples(t.db, {
    projectId: project.id,
    samples: [sample],
    toolsFor: async (s) => {
      const r = await runner.extractTools(s.source, s.meta.env_class_name);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  });
  const env = await t.db.environment.findFirstOrThrow({ where: { projectId: project.id } });
  return { project, env };
}

const deps = () => ({
  sandbox: runner,
  llmFor: createRunLlmFactory(t.db, {
    baseUrl: fake.url,
    apiKey: "test",
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 10 },
  }),
  send: jobQueueOn(boss).send,
});

describe("scenario generation, validator proof and rollouts", () => {
  it("generates scenarios, drops a near-duplicate, proves them (catching planted bad validators) and scores rollouts", async () => {
    const { project, env } = await seedLibrary();
    // Start from an environment without scenarios: the generated ones are the samples' tasks.
    await t.db.scenario.deleteMany({ where: { environmentId: env.id } });
    const script = createScenarioScript(sample, {
      passesWithoutWork: 1,
      unsatisfiable: 2,
      formatErrorsFirst: true,
    });
    fake.setScript(script);
    const d = deps();
    const run = await enqueueGenerationRun(t.db, d.send, {
      projectId: project.id,
      environmentId: env.id,
      environmentVersionId: env.currentVersionId!,
      config: { count: 4, model: "m-gen", concurrency: 1, goldModel: "m-gold" },
    });
    await executeGenerationRun(t.db, run.id, d);

    const finished = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(finished.status).toBe("SUCCEEDED");
    expect(finished.promptTokens).toBeGreaterThan(0);
    const dedup = await t.db.pipelineStep.findFirstOrThrow({ where: { runId: run.id, stage: "dedup" } });
    expect((dedup.input as { verdicts: { keep: boolean }[] }).verdicts.map((v) => v.keep)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    const generated = await t.db.scenario.findMany({
      where: { environmentId: env.id },
      orderBy: { externalId: "asc" },
      include: { validators: { orderBy: { position: "asc" }, include: { currentVersion: true } } },
    });
    expect(generated.map((g) => g.task)).toEqual(sample.scenarios.map((s) => s.task));
    expect(generated[0]!.validators.map((v) => v.currentVersion?.code)).toEqual(
      sample.scenarios[0]!.checklist_with_func.map((c) => c.check_func),
    );
    expect(generated.every((g) => g.status === "DRAFT" && g.proofStatus === "PENDING")).toBe(true);
    // Every first-try format error (extra state key, short task, item without "Has", wrong signature) was re-asked.
    const reasks = await t.db.llmCall.count({ where: { runId: run.id, purpose: { contains: "re-ask" } } });
    expect(reasks).toBe(4);

    // Generation enqueued a proof run for the new scenarios.
    const proofRun = await t.db.pipelineRun.findFirstOrThrow({
      where: { projectId: project.id, kind: "PROOF" },
    });
    expect(ProofRunInputSchema.parse(proofRun.input).scenarioIds.sort()).toEqual(
      generated.map((g) => g.id).sort(),
    );
    const [job] = await boss.fetch<{ runId: string }>("scenarios.proof");
    expect(job?.data.runId).toBe(proofRun.id);
    await executeProofRun(t.db, proofRun.id, d);

    const proven = await t.db.scenario.findMany({
      where: { environmentId: env.id },
      orderBy: { externalId: "asc" },
      include: { proofs: true },
    });
    expect(proven.map((p) => [p.status, p.proofStatus])).toEqual([
      ["VERIFIED", "VERIFIED"],
      ["IN_REVIEW", "FAILED"],
      ["IN_REVIEW", "FAILED"],
    ]);
    const codes = (i: number) => (proven[i]!.proofReasons as { code: string }[]).map((r) => r.code);
    expect(codes(1)).toEqual(["PASSES_WITHOUT_WORK", "NOT_SENSITIVE"]);
    expect(codes(2)).toEqual(["FAILS_ON_GOLD", "NOT_SENSITIVE"]);
    const proof = proven[0]!.proofs[0]!;
    expect(proof.environmentVersionId).toBe(env.currentVersionId);
    expect(proof.validatorVersionIds).toEqual(generated[0]!.validators.map((v) => v.currentVersionId));
    expect((proof.gold as { source: string }).source).toBe("llm");

    // Rollouts: 2 per scenario; the agent replays the gold calls.
    const rollouts = await enqueueRolloutRun(t.db, d.send, {
      projectId: project.id,
      scenarioIds: proven.map((p) => p.id),
      config: { models: ["m-agent"], k: 2, concurrency: 2 },
    });
    await executeRolloutRun(t.db, rollouts.id, d);
    const trajectories = await t.db.trajectory.findMany({
      where: { runId: rollouts.id },
      orderBy: [{ scenarioId: "asc" }, { rolloutIndex: "asc" }],
    });
    expect(trajectories).toHaveLength(6);
    const rewardOf = (id: string) => trajectories.filter((tr) => tr.scenarioId === id).map((tr) => tr.reward);
    const n2 = generated[2]!.validators.length;
    expect(rewardOf(proven[0]!.id)).toEqual([1, 1]);
    expect(rewardOf(proven[2]!.id)).toEqual([
      Math.round(((n2 - 1) / n2) * 10000) / 10000,
      Math.round(((n2 - 1) / n2) * 10000) / 10000,
    ]);
    const first = trajectories.find((tr) => tr.scenarioId === proven[0]!.id)!;
    expect(first).toMatchObject({
      status: "COMPLETED",
      model: "m-agent",
      mode: "non_conversational",
      sftPass: true,
      environmentVersionId: env.currentVersionId,
    });
    expect(first.validatorVersionIds).toEqual(generated[0]!.validators.map((v) => v.currentVersionId));
    expect((first.checkResults as unknown[]).length).toBe(generated[0]!.validators.length);
    const rolloutRun = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: rollouts.id } });
    expect(rolloutRun.status).toBe("SUCCEEDED");
    expect(rolloutRun.promptTokens).toBeGreaterThan(0);
  }, 300_000);
});
