/**
 * A decision names the version it was made on, an edit after acceptance
 * puts the item back in the queue as "changed since accepted", accepting a risky item needs a
 * written reason, and the last decision can be undone (logged as an UNDO decision).
 */
import { describe, expect, it } from "vitest";
import { saveEnvironmentVersion } from "@/lib/environments/server/save-environment-version";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import {
  createEnvironment,
  createQualityCheck,
  createScenario,
  createTestProject,
  createTrajectory,
  createUser,
  proveScenario,
  currentVersionsOf,
} from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { claimItem, releaseClaim } from "./claims";
import { decideItem } from "./decide-item";
import { findReviewQueue } from "./find-review-queue";
import { undoLastDecision } from "./undo-decision";

const t = useTestDatabase();
const sandbox = analyzeOk;

async function world() {
  const project = await createTestProject(t.db);
  const user = await createUser(t.db, { role: "REVIEWER" });
  const actor = { id: user.id, email: user.email, name: user.name, role: user.role };
  return { project, actor };
}

describe("acceptance belongs to a version", () => {
  it("records the version, and an edit after acceptance is back in the queue as changed since accepted", async () => {
    const { project, actor } = await world();
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const { decisionId } = await decideItem(
      t.db,
      {
        kind: "environment",
        id: env.id,
        decision: "ACCEPT",
        reason: "",
        versionId: env.currentVersionId!,
      },
      actor,
    );
    expect((await t.db.reviewDecision.findUniqueOrThrow({ where: { id: decisionId } })).after).toMatchObject({
      version: 1,
      versionId: env.currentVersionId,
    });
    await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: env.currentVersionId!,
        source: "class Counter:\n    pass\n",
        message: "after acceptance",
      },
      actor,
      sandbox,
    );
    expect(await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).toMatchObject({
      status: "IN_REVIEW",
      acceptedVersionId: env.currentVersionId,
    });
    const item = (await findReviewQueue(t.db, project.id, {}, actor)).items.find((i) => i.id === env.id);
    expect(item?.changed).toEqual({
      text: "changed since accepted: v1 was accepted, the code is now v2",
      href: `/environments/${env.id}/versions?a=1&b=2`,
    });
  });

  it("a validator edit after acceptance sends the scenario back to review, remembering the accepted checks", async () => {
    const { project, actor } = await world();
    const env = await createEnvironment(t.db, project.id, { status: "ACCEPTED" });
    const scenario = await createScenario(t.db, env.id, { status: "DRAFT" });
    await proveScenario(t.db, scenario.id);
    await decideItem(
      t.db,
      { ...(await currentVersionsOf(t.db, "scenario", scenario.id)), decision: "ACCEPT", reason: "" },
      actor,
    );
    const validator = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: validator.currentVersionId!,
        code: "def check_func(final_state):\n    return True\n",
        message: "loosen",
      },
      actor,
      sandbox,
    );
    expect(await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).toMatchObject({
      status: "IN_REVIEW",
      proofStatus: "STALE",
      acceptedValidatorVersionIds: [validator.currentVersionId],
    });
    const item = (await findReviewQueue(t.db, project.id, {}, actor)).items.find((i) => i.id === scenario.id);
    expect(item?.changed?.text).toContain("changed since accepted");
  });
});

describe("decisions that are hard to get wrong", () => {
  it("accepting with a failed or pending proof, or a failing quality check, needs a written reason", async () => {
    const { project, actor } = await world();
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    await createQualityCheck(t.db, env.currentVersionId!, ["PASS", "FAIL", "FAIL"]);
    const scenario = await createScenario(t.db, env.id, { status: "IN_REVIEW" });
    await proveScenario(t.db, scenario.id, "FAILED");
    const queue = await findReviewQueue(t.db, project.id, {}, actor);
    expect(queue.items.find((i) => i.id === scenario.id)?.risks).toEqual(["its validator proof failed"]);
    expect(queue.items.find((i) => i.id === env.id)?.risks).toEqual([
      "its quality check is below the threshold (not-fail rate 33 % < 85 %)",
    ]);
    await expect(
      decideItem(
        t.db,
        { ...(await currentVersionsOf(t.db, "scenario", scenario.id)), decision: "ACCEPT", reason: "" },
        actor,
      ),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("its validator proof failed") as unknown,
    });
    await expect(
      decideItem(
        t.db,
        { ...(await currentVersionsOf(t.db, "environment", env.id)), decision: "ACCEPT", reason: "" },
        actor,
      ),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).status).toBe("IN_REVIEW");
    const { decisionId } = await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "scenario", scenario.id)),
        decision: "ACCEPT",
        reason: "check 2 is wrong, fixed separately",
      },
      actor,
    );
    expect((await t.db.reviewDecision.findUniqueOrThrow({ where: { id: decisionId } })).after).toMatchObject({
      overridden: ["its validator proof failed"],
    });
  });

  it("undoes the last decision as a logged decision, once, and only while the item is unchanged", async () => {
    const { project, actor } = await world();
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const scenario = await createScenario(t.db, env.id, { status: "DRAFT" });
    const flagged = await createTrajectory(t.db, scenario.id, { flagReason: "low reward" });
    await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "trajectory", flagged.id)),
        decision: "REJECT",
        reason: "agent guessed",
      },
      actor,
    );
    expect((await findReviewQueue(t.db, project.id, {}, actor)).counts.trajectory).toBe(0);
    const undone = await undoLastDecision(t.db, project.id, actor);
    expect(undone).toMatchObject({
      ...(await currentVersionsOf(t.db, "trajectory", flagged.id)),
      undone: { decision: "REJECT" },
    });
    expect((await findReviewQueue(t.db, project.id, {}, actor)).counts.trajectory).toBe(1);
    await expect(undoLastDecision(t.db, project.id, actor)).rejects.toMatchObject({ code: "NOT_FOUND" });

    await decideItem(
      t.db,
      { ...(await currentVersionsOf(t.db, "environment", env.id)), decision: "ACCEPT", reason: "" },
      actor,
    );
    await undoLastDecision(t.db, project.id, actor);
    expect(await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).toMatchObject({
      status: "IN_REVIEW",
      acceptedVersionId: null,
    });
    const log = await t.db.reviewDecision.findMany({
      where: { projectId: project.id },
      orderBy: { createdAt: "asc" },
      select: { decision: true },
    });
    expect(log.map((l) => l.decision)).toEqual(["REJECT", "UNDO", "ACCEPT", "UNDO"]);

    await decideItem(
      t.db,
      { ...(await currentVersionsOf(t.db, "environment", env.id)), decision: "ACCEPT", reason: "" },
      actor,
    );
    await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: env.currentVersionId!,
        source: "class Counter:\n    x = 1\n",
        message: "edit",
      },
      actor,
      sandbox,
    );
    await expect(undoLastDecision(t.db, project.id, actor)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("counts items held by others within the queue's filter, like its other counters", async () => {
    const { project, actor: alice } = await world();
    const bobUser = await createUser(t.db, { role: "REVIEWER" });
    const bob = { id: bobUser.id, email: bobUser.email, name: bobUser.name, role: bobUser.role };
    const here = await createEnvironment(t.db, project.id, { status: "IN_REVIEW", domain: "here" });
    const elsewhere = await createEnvironment(t.db, project.id, { status: "IN_REVIEW", domain: "elsewhere" });
    await claimItem(t.db, { kind: "environment", id: here.id }, bob);
    await claimItem(t.db, { kind: "environment", id: elsewhere.id }, bob);
    expect((await findReviewQueue(t.db, project.id, { domain: "here" }, alice)).claimedByOthers).toBe(1);
    expect((await findReviewQueue(t.db, project.id, {}, alice)).claimedByOthers).toBe(2);
  });

  it("a claim is short-lived unless renewed by the page's heartbeat, and a release frees it at once (item 7)", async () => {
    const { project, actor: alice } = await world();
    const bobUser = await createUser(t.db, { role: "REVIEWER" });
    const bob = { id: bobUser.id, email: bobUser.email, name: bobUser.name, role: bobUser.role };
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const item = { kind: "environment" as const, id: env.id };
    const t0 = Date.now();
    const at = (s: number) => new Date(t0 + s * 1000);
    expect(await claimItem(t.db, item, alice, at(0))).toMatchObject({ claimed: true });
    expect(await claimItem(t.db, item, bob, at(90))).toMatchObject({ claimed: false });
    expect(await claimItem(t.db, item, alice, at(90))).toMatchObject({ claimed: true });
    expect(await claimItem(t.db, item, bob, at(200))).toMatchObject({ claimed: false });
    // A closed tab sends no heartbeat: the claim lapses two minutes after the last one.
    expect(await claimItem(t.db, item, bob, at(211))).toMatchObject({ claimed: true });
    expect(await releaseClaim(t.db, item, bob)).toEqual({ released: 1 });
    expect(await claimItem(t.db, item, alice, at(212))).toMatchObject({ claimed: true });
  });
});
