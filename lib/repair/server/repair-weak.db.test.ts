/**
 * Weak validators as repair targets, against real Postgres, the real sandbox and the scripted LLM:
 * a scenario whose proof VERIFIED but whose checks accept a near-miss is picked by environment and
 * dataset selections, a REPAIR run proposes and proves a stronger check (the near-miss that passed
 * now fails, the proof still holds), the queue shows it with both proofs' strength, and accepting
 * saves the new check version. A strong scenario, or one whose strength is not measured, is refused.
 */
import { describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { findReviewQueue } from "@/lib/review/server/find-review-queue";
import { getQueuePreview } from "@/lib/review/server/get-queue-preview";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { actorOf, createUser } from "@/prisma/seed/factories";
import { lastUserText } from "@/tests/fake-openai/server";
import { useRepairDb } from "@/tests/repair/repair-db-harness";
import { repairRefusal } from "./propose-repair";
import { selectRepairItems } from "./select-repair-items";
import {
  BOTH_CHANGES as BOTH,
  COUNT_IS_2,
  TAGGED_DONE as TAGGED,
  checkReturning,
} from "@/tests/two-change-counter";
import { seedCounterEnvironment, seedCounterScenario } from "@/tests/two-change-counter-seed";

const h = useRepairDb();
const { t, sandbox } = h;

const counterEnv = () => seedCounterEnvironment(t.db, sandbox, "weak");

async function provenScenario(envId: string, checks: string[], opts: { nearMisses?: boolean } = {}) {
  const scenario = await seedCounterScenario(t.db, envId, checks);
  const proof = await runValidatorProof(t.db, { scenarioId: scenario.id, ...opts }, { sandbox });
  expect(proof.ok && proof.value.status).toBe("VERIFIED");
  return scenario;
}

const repairRun = (projectId: string, scenarioIds: string[]) => h.repairRun(projectId, { scenarioIds });

const answer = (code: string) =>
  `# Diagnosis\nThe check never looks at the tag.\n# Check 1\n# Fix\n\`\`\`python\n${code}\`\`\`\n`;

describe("a weak validator as a repair target", () => {
  it("is selected by environment and dataset, repaired, proven against its near-miss, reviewed and accepted", async () => {
    const { project, env } = await counterEnv();
    const weak = await provenScenario(env.id, [COUNT_IS_2]);
    const strong = await provenScenario(env.id, [COUNT_IS_2, TAGGED]);
    expect(await repairRefusal(t.db, weak.id)).toBeNull();
    expect(await repairRefusal(t.db, strong.id)).toBe(
      "its proof passes: nothing to repair (its checks reject every near-miss)",
    );

    const byEnv = await selectRepairItems(t.db, project.id, { kind: "environment", slug: env.slug });
    expect(byEnv.scenarioIds).toEqual([weak.id]);
    await t.db.environment.update({
      where: { id: env.id },
      data: { status: "ACCEPTED", acceptedVersionId: env.currentVersionId },
    });
    for (const s of [weak, strong]) {
      const validators = await t.db.validator.findMany({ where: { scenarioId: s.id } });
      await t.db.scenario.update({
        where: { id: s.id },
        data: { status: "ACCEPTED", acceptedValidatorVersionIds: validators.map((v) => v.currentVersionId!) },
      });
    }
    await createDatasetVersion(t.db, { projectId: project.id, name: "weak-held" });
    const byDataset = await selectRepairItems(t.db, project.id, { kind: "dataset", name: "weak-held" });
    expect(byDataset.scenarioIds).toEqual([weak.id]);

    h.fake.setScript(() => ({ content: answer(BOTH), usage: { prompt: 1000, completion: 200 } }));
    const summary = await repairRun(project.id, byDataset.scenarioIds);
    expect(summary).toMatchObject({ status: "SUCCEEDED", itemsTried: 1, proven: 1, failed: 0 });
    expect(lastUserText(h.fake.chatRequests().at(-1)!.body as never)).toContain("skips call 2 (tag)");

    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: weak.id } });
    expect(proposal.status).toBe("PROVEN");
    const preview = await getQueuePreview(t.db, project.id, { kind: "repair", id: proposal.id });
    expect(preview.diff).toMatchObject({
      original: expect.stringContaining(COUNT_IS_2.trimEnd()) as unknown,
      modified: expect.stringContaining(BOTH.trimEnd()) as unknown,
    });
    expect(preview.comparison?.before.status).toBe("VERIFIED");
    expect(preview.comparison?.before.reasons).toContain(
      "weak validator: the near-miss that skips call 2 (tag) earns full reward",
    );
    expect(preview.comparison?.after?.status).toBe("VERIFIED");
    expect(preview.comparison?.after?.reasons.join(" ")).not.toContain("weak validator");
    expect(preview.comparison?.after?.reasons.join(" ")).toMatch(/validator strength: (\d+)\/\1 near-misses/);

    const alice = actorOf(await createUser(t.db, { role: "REVIEWER" }));
    await h.acceptProposal(proposal.id, alice);
    const validator = await t.db.validator.findFirstOrThrow({
      where: { scenarioId: weak.id },
      include: { currentVersion: true },
    });
    expect(validator.currentVersion).toMatchObject({ code: BOTH, producedBy: "repair:m-repair" });
    // Re-proven, the stronger check is no longer weak: nothing is left to repair.
    await runValidatorProof(t.db, { scenarioId: weak.id }, { sandbox });
    expect(await repairRefusal(t.db, weak.id)).toBe(
      "its proof passes: nothing to repair (its checks reject every near-miss)",
    );
  });

  it("keeps a fix that still accepts the near-miss as FAILED, never offered", async () => {
    const { project, env } = await counterEnv();
    const weak = await provenScenario(env.id, [COUNT_IS_2]);
    h.fake.setScript(() => ({ content: answer(checkReturning("final_state['count'] >= 2")) }));
    const summary = await repairRun(project.id, [weak.id]);
    expect(summary).toMatchObject({ itemsTried: 1, proven: 0, failed: 1 });
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: weak.id } });
    // ">= 2" still accepts skipping the tag, and now adding 3 as well: each named.
    expect(proposal.reasons).toEqual([
      'the near-miss "skips call 2 (tag)" still earns full reward',
      'the near-miss "call 1 (add) with amount=3 instead of 2" still earns full reward',
      'the near-miss "call 2 (tag) with label="done (altered)" instead of "done"" still earns full reward',
    ]);
    expect((await findReviewQueue(t.db, project.id, { kind: "repair" }, { id: "nobody" })).items).toEqual([]);
  });

  it("refuses a scenario whose strength was not measured, before any LLM request", async () => {
    const { project, env } = await counterEnv();
    const unmeasured = await provenScenario(env.id, [COUNT_IS_2], { nearMisses: false });
    expect(await repairRefusal(t.db, unmeasured.id)).toBe(
      "its proof passes: nothing to repair (its strength is not measured: prove its validators to measure it)",
    );
    const byEnv = await selectRepairItems(t.db, project.id, { kind: "environment", slug: env.slug });
    expect(byEnv.scenarioIds).toEqual([]);
  });
});
