/**
 * Environment-code repair end to end against real Postgres, the real sandbox and the scripted LLM:
 * an environment whose quality probe failed gets a proposal from a REPAIR run, proven by re-running
 * and re-judging the probe and re-proving its verified sibling scenarios; the queue offers only a
 * proven one, with the source diff and the probe evidence before and after; accepting saves a new
 * environment version by compare-and-set on the version it was proposed for. A fix that breaks a
 * sibling, or no usable reply, is kept FAILED and never applied; bad input asks no model.
 */
import { describe, expect, it } from "vitest";
import type { Prisma } from "@/lib/db";
import { saveEnvironmentVersion } from "@/lib/environments/server/save-environment-version";
import { decideItem } from "@/lib/review/server/decide-item";
import { findReviewQueue } from "@/lib/review/server/find-review-queue";
import { getQueuePreview } from "@/lib/review/server/get-queue-preview";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { actorOf, createUser } from "@/prisma/seed/factories";
import { useFakeEndpoint } from "@/tests/pipeline-harness";
import { type FakeReply, stageOf } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { answerWith } from "@/tests/repair/defect-corpus";
import {
  CHECKOUT_BREAKS_SIBLING,
  CHECKOUT_RIGHT,
  ENVIRONMENT_DEFECTS,
  LIBRARY,
} from "@/tests/repair/environment-defects";
import { useRepairDb } from "@/tests/repair/repair-db-harness";
import { environmentRepairRefusal, proposeEnvironmentRepair } from "./propose-environment-repair";
import { enqueueRepairRun } from "./repair-run";
import { launchRepair } from "./launch-repair";
import { selectRepairItems } from "./select-repair-items";

const h = useRepairDb();
const { t, sandbox } = h;
// The docstring promises 14 days, the code lends for 21: every scenario still verifies on it.
const defect = ENVIRONMENT_DEFECTS.find((d) => d.kind === "docstring disagrees with the code")!;

const judge = (verdict: string): FakeReply => ({
  content: JSON.stringify({ analysis: "graded", verdict, error_reason: "" }),
});
/** The judge passes every re-run probe; the repair model answers with `reply(n)` on its n-th ask. */
function script(reply: (n: number) => string) {
  let n = 0;
  h.fake.setScript((body) =>
    stageOf(body) === "judge_call"
      ? judge("PASS")
      : { content: reply(n++), usage: { prompt: 100, completion: 50 } },
  );
}
const asked = (stage: string) =>
  h.fake.chatRequests().filter((r) => stageOf(r.body as never) === stage).length;

/** The library sample with checkout_copy's docstring wrong, its scenarios proven, one failed probe. */
async function brokenLibrary(opts: { failedProbe?: boolean } = {}) {
  const project = await h.projectWithSamples("repair-env", [{ ...LIBRARY, source: defect.broken }]);
  const env = await t.db.environment.findFirstOrThrow({
    where: { projectId: project.id },
    include: { currentVersion: true },
  });
  expect(env.currentVersion?.source).toBe(defect.broken);
  const scenarios = await t.db.scenario.findMany({ where: { environmentId: env.id } });
  for (const s of scenarios) {
    const proof = await runValidatorProof(t.db, { scenarioId: s.id, nearMisses: false }, { sandbox });
    expect(proof.ok && proof.value.status).toBe("VERIFIED");
  }
  const probe = (verdict: "PASS" | "FAIL", index: number) => ({
    index,
    kind: "positive",
    toolName: "checkout_copy",
    arguments: { member_id: "M002", copy_id: "C001-1" },
    observation: { success: true, loan_id: "L005", due_date: "2025-05-06" },
    stateDiff: {
      added: [{ path: ["loans", "L005"], value: { member_id: "M002" } }],
      removed: [],
      changed: [],
    },
    verdict,
    rationale: verdict === "FAIL" ? defect.rationale : "fine",
  });
  await t.db.qualityCheck.create({
    data: {
      environmentVersionId: env.currentVersionId!,
      testState: LIBRARY.scenarios[0]!.init_config as Prisma.InputJsonValue,
      rounds: 2,
      probes: { create: [probe(opts.failedProbe === false ? "PASS" : "FAIL", 0), probe("PASS", 1)] },
    },
  });
  const alice = actorOf(await createUser(t.db, { role: "REVIEWER" }));
  return { project, env, alice, scenarios };
}

const repairRun = (projectId: string, environmentIds: string[]) => h.repairRun(projectId, { environmentIds });

const headOf = async (environmentId: string) =>
  (
    await t.db.environment.findUniqueOrThrow({
      where: { id: environmentId },
      include: { currentVersion: true },
    })
  ).currentVersion!;

describe("an environment whose quality probe failed", () => {
  it("is selected by its env_id, gets a proven fix, and accepting saves a new version for review", async () => {
    const { project, env, alice } = await brokenLibrary();
    const selected = await selectRepairItems(t.db, project.id, { kind: "environment", slug: env.slug });
    expect(selected).toMatchObject({ scenarioIds: [], environmentIds: [env.id] });
    script(() => answerWith(CHECKOUT_RIGHT, "The docstring said 14 days; loans last 21."));
    const summary = await repairRun(project.id, selected.environmentIds);
    expect(summary).toMatchObject({
      status: "SUCCEEDED",
      itemsTried: 1,
      environmentsTried: 1,
      proven: 1,
      failed: 0,
    });
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    expect(proposal).toMatchObject({ kind: "ENVIRONMENT", status: "PROVEN", scenarioId: null });
    expect(proposal.environmentVersionId).toBe(env.currentVersionId);

    const queue = await findReviewQueue(t.db, project.id, { kind: "repair" }, { id: alice.id });
    expect(queue.items.map((i) => i.id)).toEqual([proposal.id]);
    const preview = await getQueuePreview(t.db, project.id, { kind: "repair", id: proposal.id });
    expect(preview.diff?.label).toBe("environment code v1 → proposed");
    expect(preview.diff?.original).toBe(defect.broken);
    expect(preview.diff?.modified).toBe(LIBRARY.source);
    expect(preview.comparison?.before).toMatchObject({ status: "FAILED" });
    expect(preview.comparison?.before.reasons[0]).toContain(`judge: FAIL — ${defect.rationale}`);
    expect(preview.comparison?.after?.status).toBe("PROVEN");
    expect(preview.comparison?.after?.reasons.join("\n")).toContain("checkout_copy(");
    expect(preview.comparison?.after?.reasons.join("\n")).toContain("judge: PASS");
    expect(preview.comparison?.after?.reasons.join("\n")).toContain(
      `scenario ${LIBRARY.scenarios[0]!.task_id}: still verified`,
    );
    expect(preview.tools.map((tool) => tool.function.name)).toContain("checkout_copy");

    const decided = await h.acceptProposal(proposal.id, alice);
    expect(decided.proofRunId).toBeTruthy();
    const head = await headOf(env.id);
    expect(head).toMatchObject({
      version: 2,
      source: LIBRARY.source,
      authorId: null,
      producedBy: "repair:m-repair",
      message: "Repair by m-repair: The docstring said 14 days; loans last 21.",
      parentVersionId: env.currentVersionId,
    });
    // Not accepted by this: the environment waits for review of its new version.
    const after = await t.db.environment.findUniqueOrThrow({ where: { id: env.id } });
    expect(after).toMatchObject({ status: "IN_REVIEW", acceptedVersionId: env.currentVersionId });
    expect(await h.latestDecisions(project.id, 2)).toEqual([
      "ENVIRONMENT_VERSION EDIT",
      "REPAIR_PROPOSAL ACCEPT",
    ]);
    expect((await t.db.repairProposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe(
      "ACCEPTED",
    );
  });

  it("keeps a fix that repairs the probe but breaks a sibling scenario as FAILED, never applied", async () => {
    const { project, env, alice } = await brokenLibrary();
    script(() => answerWith(CHECKOUT_BREAKS_SIBLING));
    expect(await repairRun(project.id, [env.id])).toMatchObject({ proven: 0, failed: 1 });
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    expect(proposal.status).toBe("FAILED");
    expect(JSON.stringify(proposal.reasons)).toContain(`breaks scenario ${LIBRARY.scenarios[0]!.task_id}`);
    // Kept with its evidence: the failed probe and the proof on the changed code.
    expect(JSON.stringify(proposal.evidence)).toContain(defect.rationale);
    expect(JSON.stringify(proposal.proofAfter)).toContain('"status":"FAILED"');
    expect((await findReviewQueue(t.db, project.id, { kind: "repair" }, { id: alice.id })).items).toEqual([]);
    await expect(
      decideItem(t.db, { kind: "repair", id: proposal.id, decision: "ACCEPT", reason: "I insist" }, alice),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect((await headOf(env.id)).id).toBe(env.currentVersionId);
  });

  it("refuses to accept after the environment got a newer version, and changes nothing", async () => {
    const { project, env, alice } = await brokenLibrary();
    script(() => answerWith(CHECKOUT_RIGHT));
    await repairRun(project.id, [env.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    expect(proposal.status).toBe("PROVEN");
    const edited = `${defect.broken}# edited by hand\n`;
    await saveEnvironmentVersion(
      t.db,
      { environmentId: env.id, baseVersionId: env.currentVersionId!, source: edited, message: "by hand" },
      alice,
      sandbox,
    );
    const decisions = await t.db.reviewDecision.count({ where: { projectId: project.id } });
    const refused = await decideItem(
      t.db,
      { kind: "repair", id: proposal.id, decision: "ACCEPT", reason: "" },
      alice,
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "CONFLICT", retryable: false });
    expect((refused as Error).message).toContain("it was made for version 1; version 2 is current now");
    const head = await headOf(env.id);
    expect(head).toMatchObject({ version: 2, source: edited, producedBy: "user" });
    expect(await t.db.environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
    expect((await t.db.repairProposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe(
      "PROVEN",
    );
    expect(await t.db.reviewDecision.count({ where: { projectId: project.id } })).toBe(decisions);
  });

  it("accepted while a save of the code is in flight: the accept waits for the save, then is refused", async () => {
    const { project, env, alice } = await brokenLibrary();
    script(() => answerWith(CHECKOUT_RIGHT));
    await repairRun(project.id, [env.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    const refused = await h.acceptDuringSave(proposal.id, alice, [
      [
        `INSERT INTO "EnvironmentVersion" ("id", "environmentId", "version", "className", "source", "sourceHash", "producedBy")
       VALUES ('race-env-repair', $1, 2, $2, $3, 'x', 'user')`,
        [env.id, LIBRARY.meta.env_class_name, `${defect.broken}# saved meanwhile\n`],
      ],
      [
        `UPDATE "Environment" SET "currentVersionId" = 'race-env-repair' WHERE "id" = $1 AND "currentVersionId" = $2`,
        [env.id, env.currentVersionId],
      ],
    ]);
    expect(refused).toMatchObject({ code: "CONFLICT" });
    expect((await headOf(env.id)).id).toBe("race-env-repair");
    expect(
      await t.db.environmentVersion.count({
        where: { environmentId: env.id, producedBy: { startsWith: "repair:" } },
      }),
    ).toBe(0);
  });

  it("re-asks a garbage reply with the reason, then keeps the proposal FAILED", async () => {
    const { project, env } = await brokenLibrary();
    const before = asked("repair_environment");
    script(() => "I would rather not write code today.");
    expect(await repairRun(project.id, [env.id])).toMatchObject({ proven: 0, failed: 1 });
    // The first ask and the default two re-asks.
    expect(asked("repair_environment") - before).toBe(3);
    const reask = h.fake
      .chatRequests()
      .map((r) => JSON.stringify(r.body))
      .filter((b) => b.includes("[stage:repair_environment]"))
      .at(-1);
    expect(reask).toContain("could not be used");
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    expect(proposal).toMatchObject({ status: "FAILED", summary: "no usable patch" });
    expect((proposal.reasons as string[]).length).toBe(1);
    expect((await headOf(env.id)).id).toBe(env.currentVersionId);
  });

  it("records why a proposal was rejected", async () => {
    const { project, env, alice } = await brokenLibrary();
    script(() => answerWith(CHECKOUT_RIGHT));
    await repairRun(project.id, [env.id]);
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { environmentId: env.id } });
    const { proposal: rejected, logged } = await h.rejectProposal(proposal.id, alice, "too broad");
    expect(rejected).toMatchObject({ status: "REJECTED", decisionReason: "too broad" });
    expect(logged).toBe(1);
    expect((await headOf(env.id)).id).toBe(env.currentVersionId);
  });
});

describe("bad input changes nothing and asks no model", () => {
  it("is taken by the button of the generation run that made it", async () => {
    const { project, env, alice } = await brokenLibrary();
    const generation = await t.db.pipelineRun.create({
      data: { projectId: project.id, kind: "SKEL_BUILDER", status: "SUCCEEDED" },
    });
    await t.db.environment.update({ where: { id: env.id }, data: { runId: generation.id } });
    useFakeEndpoint(h.fake.url);
    const sent: unknown[] = [];
    const repair = await launchRepair(
      t.db,
      (_def, payload) => (sent.push(payload), Promise.resolve(null)),
      project.id,
      { target: { kind: "run", id: generation.id } },
      alice,
    );
    const run = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: repair.runId } });
    expect(run.kind).toBe("REPAIR");
    expect(run.input).toMatchObject({ environmentIds: [env.id] });
    expect(sent).toHaveLength(1);
  });

  it("refuses an unknown environment, one whose probes did not fail, and a budget of 0", async () => {
    const { project, env } = await brokenLibrary({ failedProbe: false });
    const requests = h.fake.chatRequests().length;
    const runs = await t.db.pipelineRun.count();
    const proposals = await t.db.repairProposal.count();
    await expect(
      selectRepairItems(t.db, project.id, { kind: "environment", slug: "nope" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await selectRepairItems(t.db, project.id, { kind: "environment", slug: env.slug })).toMatchObject({
      scenarioIds: [],
      environmentIds: [],
    });
    expect(await environmentRepairRefusal(t.db, env.id)).toBe(
      "no quality probe of its current version (v1) failed: nothing to repair",
    );
    expect(await environmentRepairRefusal(t.db, "nope")).toContain("there is no environment");
    const direct = await proposeEnvironmentRepair(
      t.db,
      { environmentId: env.id },
      { llm: createTestLlm(h.fake.url).llm, model: "m", judgeModel: "m", sandbox },
    );
    expect(direct).toMatchObject({ ok: false, error: { code: "NOT_FAILING", retryable: false } });
    await expect(
      enqueueRepairRun(t.db, () => Promise.resolve(null), {
        projectId: project.id,
        environmentIds: [env.id],
        config: { model: "m-repair" },
        maxCostUsd: 0,
        label: "x",
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      enqueueRepairRun(t.db, () => Promise.resolve(null), {
        projectId: project.id,
        config: { model: "m-repair" },
        label: "x",
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(await t.db.pipelineRun.count()).toBe(runs);
    expect(await t.db.repairProposal.count()).toBe(proposals);
    expect(h.fake.chatRequests().length).toBe(requests);
  });
});
