import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  createEnvironment,
  createQualityCheck,
  createScenario,
  createTestProject,
  createTrajectory,
  currentVersionsOf,
} from "@/prisma/seed/factories";
import { seedReviewWorld } from "@/tests/review-world";
import { claimItem } from "./claims";
import { resolveSelection } from "./bulk-review";
import { decideItem } from "./decide-item";
import { findAuditLog } from "./find-audit-log";
import { findReviewQueue } from "./find-review-queue";
import { reviewQualityProbe } from "./review-quality-probe";
import { undoLastDecision } from "./undo-decision";

const t = useTestDatabase();

/** One environment waiting for review. */
async function world() {
  const { envs, ...rest } = await seedReviewWorld(t.db, 1);
  return { ...rest, env: envs[0]! };
}

describe("quality review and the audit log", () => {
  it("confirms and overrides probe verdicts, accepts with a reason, and logs who/what/before/after", async () => {
    const { project, env, alice } = await world();
    const check = await createQualityCheck(t.db, env.currentVersionId!, ["PASS", "FAIL"]);
    const [p0, p1] = check.probes;
    expect(await reviewQualityProbe(t.db, { probeId: p0!.id, verdict: "PASS" }, alice)).toMatchObject({
      decision: "CONFIRM",
    });
    expect(await reviewQualityProbe(t.db, { probeId: p1!.id, verdict: "PASS" }, alice)).toMatchObject({
      decision: "OVERRIDE",
    });
    expect((await t.db.qualityProbe.findUniqueOrThrow({ where: { id: p1!.id } })).reviewerVerdict).toBe(
      "PASS",
    );
    await decideItem(
      t.db,
      {
        kind: "environment",
        id: env.id,
        decision: "ACCEPT",
        reason: "probe 1 was a judge error",
        versionId: env.currentVersionId!,
      },
      alice,
    );
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).status).toBe("ACCEPTED");
    const log = await findAuditLog(t.db, project.id, [
      { targetType: "ENVIRONMENT_VERSION", targetIds: [env.currentVersionId!] },
      { targetType: "QUALITY_PROBE", targetIds: [p0!.id, p1!.id] },
    ]);
    expect(log.map((l) => l.decision)).toEqual(["ACCEPT", "OVERRIDE", "CONFIRM"]);
    expect(log[0]).toMatchObject({
      reason: "probe 1 was a judge error",
      before: { status: "IN_REVIEW" },
      after: { status: "ACCEPTED" },
    });
    expect(log[0]?.actor).toContain(alice.email);
    expect(log[1]).toMatchObject({
      before: { judgeVerdict: "FAIL", reviewerVerdict: null },
      after: { reviewerVerdict: "PASS" },
    });
  });

  it("is append-only: the database refuses UPDATE and DELETE", async () => {
    const { env, alice } = await world();
    const { decisionId } = await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "environment", env.id)),
        decision: "REJECT",
        reason: "tools leak state",
      },
      alice,
    );
    await expect(
      t.db.reviewDecision.update({ where: { id: decisionId }, data: { reason: "rewritten" } }),
    ).rejects.toThrow(/append-only/);
    await expect(t.db.reviewDecision.delete({ where: { id: decisionId } })).rejects.toThrow(/append-only/);
  });

  it("refuses a decision on a version the reviewer did not see", async () => {
    const { env, alice } = await world();
    await expect(
      decideItem(
        t.db,
        {
          kind: "environment",
          id: env.id,
          decision: "ACCEPT",
          reason: "",
          versionId: "an-older-version",
        },
        alice,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("review queue and claims", () => {
  it("lists environments, unverified scenarios and flagged trajectories, with filters and counts", async () => {
    const { project, env, alice } = await world();
    const scenario = await createScenario(t.db, env.id, {
      status: "DRAFT",
      proofReasons: ["gold run fails check 2"],
    });
    await createScenario(t.db, env.id, { status: "VERIFIED" });
    const flagged = await createTrajectory(t.db, scenario.id, { flagReason: "reward disagrees with judge" });
    await createTrajectory(t.db, scenario.id, { flagReason: null });
    const queue = await findReviewQueue(t.db, project.id, {}, alice);
    expect(queue.counts).toEqual({ environment: 1, scenario: 1, trajectory: 1, repair: 0 });
    expect(queue.items.find((i) => i.kind === "scenario")?.reasons).toEqual(["Gold run fails check 2."]);
    expect(
      (
        await findReviewQueue(
          t.db,
          project.id,
          { kind: "trajectory", flagReason: "reward disagrees with judge" },
          alice,
        )
      ).items.map((i) => i.id),
    ).toEqual([flagged.id]);
    expect((await findReviewQueue(t.db, project.id, { domain: "other" }, alice)).items).toEqual([]);
    // A search's % and _ are literal text, not wildcards.
    expect((await findReviewQueue(t.db, project.id, { q: "%" }, alice)).matching).toBe(0);
    // Deciding a trajectory takes it off the queue (the log is its review state).
    await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "trajectory", flagged.id)),
        decision: "REJECT",
        reason: "agent guessed",
      },
      alice,
    );
    await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "scenario", scenario.id)),
        decision: "ACCEPT",
        reason: "checked the gold run by hand",
      },
      alice,
    );
    const after = await findReviewQueue(t.db, project.id, {}, alice);
    expect(after.counts).toEqual({ environment: 1, scenario: 0, trajectory: 0, repair: 0 });
    expect(after.decidedToday.mine).toBe(2);
  });

  it("keeps listing flagged rollouts when the log holds more decided rollouts than PostgreSQL takes bind parameters; an undone one is back", async () => {
    const { project, env, alice } = await world();
    const scenario = await createScenario(t.db, env.id, { status: "VERIFIED" });
    const [decided, undone, waiting] = await Promise.all(
      [0, 1, 2].map((i) => createTrajectory(t.db, scenario.id, { rolloutIndex: i, flagReason: "truncated" })),
    );
    // 40,000 decisions on other rollouts: the queue once sent every decided id as a parameter.
    await t.db.$executeRaw`
      INSERT INTO "ReviewDecision" ("id", "projectId", "targetType", "targetId", "decision")
      SELECT 'bulk-' || i, ${project.id}, 'TRAJECTORY', 'gone-' || i, 'REJECT' FROM generate_series(1, 40000) i`;
    const reject = async (id: string) =>
      decideItem(
        t.db,
        { ...(await currentVersionsOf(t.db, "trajectory", id)), decision: "REJECT", reason: "agent guessed" },
        alice,
      );
    await reject(decided!.id);
    await reject(undone!.id);
    await undoLastDecision(t.db, project.id, alice);

    const queue = await findReviewQueue(t.db, project.id, { kind: "trajectory" }, alice);
    expect(queue.items.map((i) => i.id).sort()).toEqual([undone!.id, waiting!.id].sort());
    expect(queue.counts.trajectory).toBe(2);
    // The bulk decisions' "every item matching the filter" reads the same rows.
    const resolved = await resolveSelection(t.db, project.id, {
      mode: "filter",
      filter: { kind: "trajectory" },
      asOf: new Date().toISOString(),
      except: [],
    });
    expect(resolved.targets.map((i) => i.id).sort()).toEqual([undone!.id, waiting!.id].sort());
    // The state is the rollout's own column, kept from the log by the database.
    const states = await t.db.trajectory.findMany({
      where: { id: { in: [decided!.id, undone!.id, waiting!.id] } },
      select: { id: true, reviewDecision: true },
    });
    expect(Object.fromEntries(states.map((s) => [s.id, s.reviewDecision]))).toEqual({
      [decided!.id]: "REJECT",
      [undone!.id]: null,
      [waiting!.id]: null,
    });
  });

  it("offers the project's domains and flag reasons as filters, each once and sorted", async () => {
    const { project, env, alice } = await world();
    await createEnvironment(t.db, project.id, { domain: "banking" });
    await createEnvironment(t.db, project.id, { domain: "retail" });
    const scenario = await createScenario(t.db, env.id, { status: "DRAFT" });
    for (const [i, flagReason] of ["truncated", "judge disagrees", "truncated", null].entries())
      await createTrajectory(t.db, scenario.id, { rolloutIndex: i, flagReason });
    const other = await createTestProject(t.db, "other-facets");
    const elsewhere = await createEnvironment(t.db, other.id, { domain: "aviation" });
    const theirs = await createScenario(t.db, elsewhere.id);
    await createTrajectory(t.db, theirs.id, { flagReason: "their reason" });
    const { facets } = await findReviewQueue(t.db, project.id, {}, alice);
    expect(facets.domains).toEqual(["banking", "retail"]);
    expect(facets.flagReasons).toEqual(["judge disagrees", "truncated"]);
  });

  it("gives an item to exactly one of two racing reviewers, hides it from the other, and frees it on expiry", async () => {
    const { project, env, alice, bob } = await world();
    const results = await Promise.all([
      claimItem(t.db, { kind: "environment", id: env.id }, alice),
      claimItem(t.db, { kind: "environment", id: env.id }, bob),
    ]);
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    const winner = results[0].claimed ? alice : bob;
    const loser = winner === alice ? bob : alice;
    expect((await findReviewQueue(t.db, project.id, {}, loser)).items.map((i) => i.id)).not.toContain(env.id);
    expect((await findReviewQueue(t.db, project.id, {}, winner)).items.map((i) => i.id)).toContain(env.id);
    await expect(
      decideItem(
        t.db,
        { ...(await currentVersionsOf(t.db, "environment", env.id)), decision: "ACCEPT", reason: "" },
        loser,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    // Re-claiming one's own item extends it; after expiry the other reviewer may take it.
    expect(await claimItem(t.db, { kind: "environment", id: env.id }, winner)).toMatchObject({
      claimed: true,
    });
    const later = new Date(Date.now() + 11 * 60 * 1000);
    expect(await claimItem(t.db, { kind: "environment", id: env.id }, loser, later)).toMatchObject({
      claimed: true,
    });
  });
});
