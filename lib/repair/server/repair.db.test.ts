/**
 * Repair proposals end to end against real Postgres, the real sandbox and the scripted LLM: a REPAIR
 * run proposes and proves, the queue offers only proven proposals with their diff and both proofs,
 * accepting saves new versions that go through the usual proof and acceptance, and a proposal made
 * against versions that changed since (even by a save running at the same moment) is refused.
 */
import { describe, expect, it } from "vitest";
import { decideItem } from "@/lib/review/server/decide-item";
import { findReviewQueue } from "@/lib/review/server/find-review-queue";
import { getQueuePreview } from "@/lib/review/server/get-queue-preview";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import { actorOf, createUser } from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { CHECK_DEFECTS, TRIVIAL_FIX, answerWith, defectSubject } from "@/tests/repair/defect-corpus";
import { useRepairDb } from "@/tests/repair/repair-db-harness";
import { enqueueRepairRun } from "./repair-run";
import { selectRepairItems } from "./select-repair-items";

const h = useRepairDb();
const { t, sandbox } = h;
const defect = CHECK_DEFECTS[0]!;
const { sample, right } = defectSubject(defect);

/** The library sample with one check broken (as a reviewer's edit) and proven FAILED. */
async function brokenLibrary() {
  const project = await h.projectWithSamples("repair", [sample]);
  const env = await t.db.environment.findFirstOrThrow({ where: { projectId: project.id } });
  const scenario = await t.db.scenario.findFirstOrThrow({
    where: { environmentId: env.id, externalId: sample.scenarios[defect.scenario]!.task_id },
  });
  const validator = await t.db.validator.findFirstOrThrow({
    where: { scenarioId: scenario.id, position: defect.position },
  });
  const alice = actorOf(await createUser(t.db, { role: "REVIEWER" }));
  await saveValidatorVersion(
    t.db,
    {
      validatorId: validator.id,
      baseVersionId: validator.currentVersionId!,
      code: defect.broken,
      message: "typo",
    },
    alice,
    analyzeOk,
  );
  const proof = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox });
  expect(proof.ok && proof.value.status).toBe("FAILED");
  return { project, env, scenario, validator, alice };
}

const repairRun = (projectId: string, scenarioIds: string[]) => h.repairRun(projectId, { scenarioIds });

describe("a repair run", () => {
  it("proposes and proves a fix, shows it for review, and accepting saves a version that is proven again", async () => {
    const { project, env, scenario, validator, alice } = await brokenLibrary();
    h.fake.setScript(() => ({
      content: answerWith(right, "It read `state`; copies have `status`."),
      usage: { prompt: 1000, completion: 200 },
    }));
    const summary = await repairRun(project.id, [scenario.id]);
    expect(summary).toMatchObject({ status: "SUCCEEDED", itemsTried: 1, proven: 1, failed: 0 });
    expect(summary.costUsd).toBeCloseTo(0.0014, 10); // 1000 × $1/M + 200 × $2/M, on the run like every call

    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const queue = await findReviewQueue(t.db, project.id, { kind: "repair" }, { id: alice.id });
    expect(queue.items.map((i) => i.id)).toEqual([proposal.id]);
    expect(queue.counts.repair).toBe(1);
    const preview = await getQueuePreview(t.db, project.id, { kind: "repair", id: proposal.id });
    expect(preview.diff?.original).toContain(defect.broken.trimEnd());
    expect(preview.diff?.modified).toContain(right.trimEnd());
    expect(preview.comparison?.before.status).toBe("FAILED");
    expect(preview.comparison?.after?.status).toBe("VERIFIED");

    const decided = await h.acceptProposal(proposal.id, alice);
    expect(decided.proofRunId).toBeTruthy();
    const v = await t.db.validator.findUniqueOrThrow({
      where: { id: validator.id },
      include: { currentVersion: true },
    });
    expect(v.currentVersion).toMatchObject({
      code: right,
      version: 3,
      authorId: null,
      producedBy: "repair:m-repair",
      message: "Repair by m-repair: check 2: It read `state`; copies have `status`.",
    });
    // The new pins are unproven until a proof verifies them: no dataset takes them before.
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).proofStatus).toBe("STALE");
    expect(await h.latestDecisions(env.projectId, 2)).toEqual(["VALIDATOR EDIT", "REPAIR_PROPOSAL ACCEPT"]);
    const reproof = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox });
    expect(reproof.ok && reproof.value.status).toBe("VERIFIED");

    await expect(
      decideItem(t.db, { kind: "repair", id: proposal.id, decision: "ACCEPT", reason: "" }, alice),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("keeps a trivially-true fix as FAILED evidence: never in the queue, never applied", async () => {
    const { project, scenario, validator, alice } = await brokenLibrary();
    h.fake.setScript(() => ({ content: answerWith(TRIVIAL_FIX) }));
    expect(await repairRun(project.id, [scenario.id])).toMatchObject({ proven: 0, failed: 1 });
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    expect(proposal.status).toBe("FAILED");
    expect(JSON.stringify(proposal.reasons)).toContain("passes on the untouched initial state");
    expect((await findReviewQueue(t.db, project.id, { kind: "repair" }, { id: alice.id })).items).toEqual([]);
    await expect(
      decideItem(t.db, { kind: "repair", id: proposal.id, decision: "ACCEPT", reason: "I insist" }, alice),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const v = await t.db.validator.findUniqueOrThrow({
      where: { id: validator.id },
      include: { currentVersion: true },
    });
    expect(v.currentVersion?.code).toBe(defect.broken);
  });

  it("records why a proposal was rejected", async () => {
    const { project, scenario, alice } = await brokenLibrary();
    h.fake.setScript(() => ({ content: answerWith(right) }));
    await repairRun(project.id, [scenario.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const { proposal: rejected, logged } = await h.rejectProposal(proposal.id, alice, "wrong item");
    expect(rejected).toMatchObject({
      status: "REJECTED",
      decisionReason: "wrong item",
      decidedById: alice.id,
    });
    expect(logged).toBe(1);
  });
});

describe("a proposal belongs to the versions it was made against", () => {
  it("is refused after the check was edited since, and changes nothing", async () => {
    const { project, scenario, validator, alice } = await brokenLibrary();
    h.fake.setScript(() => ({ content: answerWith(right) }));
    await repairRun(project.id, [scenario.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const edited = `${right}# edited by hand\n`;
    await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: (await t.db.validator.findUniqueOrThrow({ where: { id: validator.id } }))
          .currentVersionId!,
        code: edited,
        message: "by hand",
      },
      alice,
      analyzeOk,
    );
    await expect(
      decideItem(t.db, { kind: "repair", id: proposal.id, decision: "ACCEPT", reason: "" }, alice),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const v = await t.db.validator.findUniqueOrThrow({
      where: { id: validator.id },
      include: { currentVersion: true },
    });
    expect(v.currentVersion?.code).toBe(edited);
    expect((await t.db.repairProposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe(
      "PROVEN",
    );
  });

  it("accepted while a save of the check is in flight: the accept waits for the save, then is refused", async () => {
    const { project, scenario, validator, alice } = await brokenLibrary();
    h.fake.setScript(() => ({ content: answerWith(right) }));
    await repairRun(project.id, [scenario.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const head = (await t.db.validator.findUniqueOrThrow({ where: { id: validator.id } })).currentVersionId!;
    const refused = await h.acceptDuringSave(proposal.id, alice, [
      [
        `INSERT INTO "ValidatorVersion" ("id", "validatorId", "version", "code", "checkItem", "producedBy")
       VALUES ('race-repair', $1, 9, 'def check_func(final_state):\n    return False\n', 'x', 'user')`,
        [validator.id],
      ],
      [
        `UPDATE "Validator" SET "currentVersionId" = 'race-repair' WHERE "id" = $1 AND "currentVersionId" = $2`,
        [validator.id, head],
      ],
    ]);
    expect(refused).toMatchObject({ code: "CONFLICT" });
    const v = await t.db.validator.findUniqueOrThrow({ where: { id: validator.id } });
    expect(v.currentVersionId).toBe("race-repair");
    expect(
      await t.db.validatorVersion.count({
        where: { validatorId: validator.id, producedBy: { startsWith: "repair:" } },
      }),
    ).toBe(0);
  });
});

describe("bad input changes nothing and asks no model", () => {
  it("refuses an unknown environment, a scenario that is not failing, and a budget of 0", async () => {
    const { project, env, alice: _alice } = await brokenLibrary();
    const requests = h.fake.chatRequests().length;
    const runs = await t.db.pipelineRun.count();
    await expect(
      selectRepairItems(t.db, project.id, { kind: "environment", slug: "nope" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      selectRepairItems(t.db, project.id, { kind: "scenario", scenarioId: "nope" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const healthy = await t.db.scenario.findFirstOrThrow({
      where: { environmentId: env.id, externalId: sample.scenarios[1]!.task_id },
    });
    await runValidatorProof(t.db, { scenarioId: healthy.id }, { sandbox });
    await expect(
      selectRepairItems(t.db, project.id, { kind: "scenario", scenarioId: healthy.id }),
    ).rejects.toThrow(/its proof passes: nothing to repair/);
    const selected = await selectRepairItems(t.db, project.id, { kind: "environment", slug: env.slug });
    expect(selected.scenarioIds).toHaveLength(1);
    await expect(
      enqueueRepairRun(t.db, () => Promise.resolve(null), {
        projectId: project.id,
        scenarioIds: selected.scenarioIds,
        config: { model: "m-repair" },
        maxCostUsd: 0,
        label: "x",
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(await t.db.pipelineRun.count()).toBe(runs);
    expect(h.fake.chatRequests().length).toBe(requests);
  });
});
