/**
 * The first start proves the samples instead of leaving their proofs pending: one proof run per
 * sample environment goes on the real queue, running those runs leaves every sample scenario
 * VERIFIED (proof rows for exactly its versions), and restarts neither duplicate waiting runs nor
 * re-prove what is proven.
 */
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBoss } from "@/lib/jobs/boss";
import { jobQueueOn } from "@/lib/jobs/server/send-job";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";
import { PROOF_JOB } from "@/lib/scenarios/scenario-jobs";
import { executeProofRun } from "@/lib/scenarios/server/proof-run";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { proveUnprovenSamples } from "@/prisma/seed/prove-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";

const t = useTestDatabase();
const runner = createSandboxRunner();
let boss: PgBoss;
beforeAll(async () => {
  boss = await startBoss(t.url, { supervise: false });
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await runner.close();
});

describe("sample proofs at first start", () => {
  it("enqueues one proof run per sample, and running them verifies every sample scenario", async () => {
    const samples = loadSamples();
    const slugs = samples.map((s) => s.slug);
    const project = await createTestProject(t.db, "samples");
    await seedSamples(t.db, { projectId: project.id, samples, toolsFor: () => Promise.resolve([]) });
    const send = jobQueueOn(boss).send;

    const launched = await proveUnprovenSamples(t.db, send, project.id, slugs);
    expect(launched.map((l) => l.slug)).toEqual([...slugs].sort());
    for (const l of launched) {
      const run = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: l.runId } });
      expect(run).toMatchObject({ kind: "PROOF", status: "QUEUED", createdById: null });
      const env = await t.db.environment.findUniqueOrThrow({
        where: { projectId_slug: { projectId: project.id, slug: l.slug } },
      });
      expect((run.input as { scenarioIds: string[] }).scenarioIds.length).toBe(
        await t.db.scenario.count({ where: { environmentId: env.id } }),
      );
      // The job is on the real queue under the run's key.
      const jobs = await boss.findJobs(PROOF_JOB.name, { key: `run:${l.runId}` });
      expect(jobs).toHaveLength(1);
    }
    // A restart while the runs wait enqueues nothing more.
    expect(await proveUnprovenSamples(t.db, send, project.id, slugs)).toEqual([]);

    const deps = { sandbox: runner, llmFor: createRunLlmFactory(t.db) };
    for (const l of launched) await executeProofRun(t.db, l.runId, deps);
    const scenarios = await t.db.scenario.findMany({
      where: { environment: { projectId: project.id } },
      include: { validators: true, proofs: true },
    });
    expect(scenarios.length).toBeGreaterThan(0);
    for (const s of scenarios) {
      expect(s.proofStatus, s.task).toBe("VERIFIED");
      const pinned = s.validators.map((v) => v.currentVersionId).sort();
      expect(
        s.proofs.some((p) => [...(p.validatorVersionIds as string[])].sort().join() === pinned.join()),
      ).toBe(true);
    }
    // Proven samples are not proven again on the next start.
    expect(await proveUnprovenSamples(t.db, send, project.id, slugs)).toEqual([]);
  });
});
