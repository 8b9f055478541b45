import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  acceptAndProveScenario,
  acceptAndProveScenarios,
  actorOf,
  createEnvironment,
  createManyEnvironments,
  createQualityCheck,
  createScenario,
  createTestProject,
  createTrajectory,
  createUser,
  currentVersionsOf,
  proveScenario,
} from "@/prisma/seed/factories";
import { seedReviewWorld } from "@/tests/review-world";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { BULK_CAP } from "../bulk.schema";
import {
  BULK_BATCH,
  addScenariosToDataset,
  bulkAccept,
  bulkAddToDataset,
  bulkProve,
  bulkReject,
} from "./bulk-review";
import { claimItem } from "./claims";
import { decideItemInTx } from "./decide-item";
import { findReviewQueue } from "./find-review-queue";

const t = useTestDatabase();
const sent: { job: string; payload: unknown }[] = [];
const send: JobSender = (def, payload, key) => (
  sent.push({ job: def.name, payload }),
  Promise.resolve(key ?? null)
);
const now = () => new Date().toISOString();

const world = (envCount: number) => seedReviewWorld(t.db, envCount);

const itemsOf = async (kind: "environment" | "scenario", ids: string[]) => ({
  mode: "items" as const,
  items: await Promise.all(ids.map((id) => currentVersionsOf(t.db, kind, id))),
});

const decisionsOn = (targetIds: string[]) =>
  t.db.reviewDecision.findMany({
    where: { targetId: { in: targetIds }, decision: { in: ["ACCEPT", "REJECT"] } },
    orderBy: { createdAt: "asc" },
  });

describe("bulk decisions on the review queue", () => {
  it("accepts ticked items, one audit row each, and skips those that need an override reason", async () => {
    const { envs, alice } = await world(3);
    const [ok1, ok2, risky] = envs as [(typeof envs)[0], (typeof envs)[0], (typeof envs)[0]];
    // A failing quality check: accepting needs a written override reason, so bulk accept skips it.
    await createQualityCheck(t.db, risky.currentVersionId!, ["FAIL", "FAIL"]);
    const reply = await bulkAccept(
      t.db,
      ok1.projectId,
      { selection: await itemsOf("environment", [ok1.id, ok2.id, risky.id]) },
      alice,
      send,
    );
    expect(reply).toMatchObject({ selected: 3, decided: 2 });
    expect(reply.skipped).toEqual([
      { kind: "environment", id: risky.id, reason: expect.stringContaining("override reason") as unknown },
    ]);
    const statuses = await t.db.environment.findMany({ where: { id: { in: envs.map((e) => e.id) } } });
    expect(Object.fromEntries(statuses.map((e) => [e.id, e.status]))).toEqual({
      [ok1.id]: "ACCEPTED",
      [ok2.id]: "ACCEPTED",
      [risky.id]: "IN_REVIEW",
    });
    const log = await decisionsOn(envs.map((e) => e.currentVersionId!));
    expect(log.map((l) => [l.targetId, l.decision, l.actorId]).sort()).toEqual(
      [
        [ok1.currentVersionId, "ACCEPT", alice.id],
        [ok2.currentVersionId, "ACCEPT", alice.id],
      ].sort(),
    );
  });

  it("rejects every item matching a filter with one reason, across batches, leaving the rest alone", async () => {
    const { project, envs, alice } = await world(BULK_BATCH + 5);
    const other = await createEnvironment(t.db, project.id, { status: "IN_REVIEW", domain: "travel" });
    const reply = await bulkReject(
      t.db,
      project.id,
      { selection: { mode: "filter", filter: { domain: "retail" }, asOf: now() }, reason: "duplicates" },
      alice,
      send,
    );
    expect(reply).toEqual({ selected: envs.length, decided: envs.length, skipped: [] });
    const log = await decisionsOn([...envs, other].map((e) => e.currentVersionId!));
    expect(log).toHaveLength(envs.length);
    expect(new Set(log.map((l) => l.reason))).toEqual(new Set(["duplicates"]));
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: other.id } })).status).toBe("IN_REVIEW");
  });

  it("decides each item once when two bulk decisions overlap, and the log agrees with the statuses", async () => {
    const { project, envs, alice, bob } = await world(2 * BULK_BATCH + 10);
    const scenarios = [];
    for (const e of envs.slice(0, 6)) {
      const s = await createScenario(t.db, e.id);
      await proveScenario(t.db, s.id);
      scenarios.push(s);
    }
    const half = envs.slice(20).map((e) => e.id);
    const [a, b] = await Promise.all([
      bulkAccept(t.db, project.id, { selection: { mode: "filter", filter: {}, asOf: now() } }, alice, send),
      bulkReject(
        t.db,
        project.id,
        {
          selection: {
            mode: "items",
            items: [
              ...(await itemsOf("environment", half)).items,
              ...(
                await itemsOf(
                  "scenario",
                  scenarios.map((s) => s.id),
                )
              ).items,
            ],
          },
          reason: "not needed",
        },
        bob,
        send,
      ),
    ]);
    const total = envs.length + scenarios.length;
    // A resolves its filter when it starts: items B decided before that are no longer in the queue.
    expect(a.selected).toBeLessThanOrEqual(total);
    expect(a.decided + a.skipped.length).toBe(a.selected);
    expect(b).toMatchObject({ selected: half.length + scenarios.length });
    expect(b.decided + b.skipped.length).toBe(b.selected);
    // Every item decided exactly once, by whichever bulk reached it first; the other skipped it.
    expect(a.decided + b.decided).toBe(total);
    for (const s of [...a.skipped, ...b.skipped]) expect(s.reason).toMatch(/^already (accepted|rejected)$/);
    const envLog = await decisionsOn(envs.map((e) => e.currentVersionId!));
    const scenarioLog = await decisionsOn(scenarios.map((s) => s.id));
    expect(envLog).toHaveLength(envs.length);
    expect(scenarioLog).toHaveLength(scenarios.length);
    expect(new Set(envLog.map((l) => l.targetId)).size).toBe(envs.length);
    const statusOf = new Map(
      (await t.db.environment.findMany({ where: { projectId: project.id } })).map((e) => [
        e.currentVersionId,
        e.status,
      ]),
    );
    for (const l of envLog) {
      expect(statusOf.get(l.targetId)).toBe(l.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED");
      expect(l.actorId).toBe(l.decision === "ACCEPT" ? alice.id : bob.id);
    }
    for (const s of await t.db.scenario.findMany({ where: { id: { in: scenarios.map((x) => x.id) } } })) {
      const entry = scenarioLog.find((l) => l.targetId === s.id)!;
      expect(s.status).toBe(entry.decision === "ACCEPT" ? "ACCEPTED" : "REJECTED");
    }
  });

  it("does not accept a version nobody selected: an item edited after the selection is skipped", async () => {
    const { project, envs, alice } = await world(2);
    const [edited, kept] = envs as [(typeof envs)[0], (typeof envs)[0]];
    const ticked = await itemsOf("environment", [edited.id, kept.id]);
    const asOf = now();
    await new Promise((r) => setTimeout(r, 5));
    const v2 = await t.db.environmentVersion.create({
      data: {
        environmentId: edited.id,
        version: 2,
        className: "Counter",
        source: "class Counter: pass\n",
        sourceHash: "v2",
        tools: [],
        producedBy: "test",
      },
    });
    await t.db.environment.update({ where: { id: edited.id }, data: { currentVersionId: v2.id } });
    // Ticked items name the versions seen: the edited one is refused as a conflict.
    const byItems = await bulkAccept(t.db, project.id, { selection: ticked }, alice, send);
    expect(byItems.decided).toBe(1);
    expect(byItems.skipped).toEqual([
      {
        kind: "environment",
        id: edited.id,
        reason: expect.stringContaining("changed since you reviewed it") as unknown,
      },
    ]);
    // "All matching the filter" resolved on the server: the version made after the selection is skipped too.
    const byFilter = await bulkAccept(
      t.db,
      project.id,
      { selection: { mode: "filter", filter: {}, asOf } },
      alice,
      send,
    );
    expect(byFilter).toEqual({
      selected: 1,
      decided: 0,
      skipped: [
        {
          kind: "environment",
          id: edited.id,
          reason: expect.stringContaining("changed since you selected") as unknown,
        },
      ],
    });
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: edited.id } })).status).toBe("IN_REVIEW");
    expect(await decisionsOn([edited.currentVersionId!, v2.id])).toHaveLength(0);
  });

  it("skips items another reviewer holds, and unticked items of a filter selection", async () => {
    const { project, envs, alice, bob } = await world(3);
    const [held, unticked, free] = envs as [(typeof envs)[0], (typeof envs)[0], (typeof envs)[0]];
    await claimItem(t.db, { kind: "environment", id: held.id }, bob);
    const reply = await bulkAccept(
      t.db,
      project.id,
      { selection: { mode: "filter", filter: {}, asOf: now(), except: [`environment:${unticked.id}`] } },
      alice,
      send,
    );
    expect(reply).toEqual({
      selected: 2,
      decided: 1,
      skipped: [
        { kind: "environment", id: held.id, reason: expect.stringContaining("Another reviewer") as unknown },
      ],
    });
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: free.id } })).status).toBe("ACCEPTED");
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: unticked.id } })).status).toBe(
      "IN_REVIEW",
    );
  });

  it("refuses a viewer, and bad input: an empty selection, unknown ids, too many items", async () => {
    const { project, envs, alice } = await world(1);
    const viewer = actorOf(await createUser(t.db, { role: "VIEWER" }));
    const selection = await itemsOf("environment", [envs[0]!.id]);
    await expect(bulkAccept(t.db, project.id, { selection }, viewer, send)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      bulkReject(t.db, project.id, { selection, reason: "x" }, viewer, send),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(bulkProve(t.db, project.id, { selection }, viewer, send)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      bulkAddToDataset(t.db, project.id, { selection, datasetId: "x" }, viewer),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      bulkAccept(t.db, project.id, { selection: { mode: "items", items: [] } }, alice, send),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("at least one") as unknown,
    });
    await expect(
      bulkReject(t.db, project.id, { selection, reason: "  " }, alice, send),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("reason") as unknown });
    const tooMany = Array.from({ length: BULK_CAP + 1 }, (_, i) => ({ kind: "trajectory", id: `t${i}` }));
    await expect(
      bulkAccept(t.db, project.id, { selection: { mode: "items", items: tooMany } }, alice, send),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    // Unknown ids decide nothing and come back as skipped.
    const unknown = await bulkAccept(
      t.db,
      project.id,
      {
        selection: {
          mode: "items",
          items: [
            { kind: "environment", id: "no-such-env", versionId: "v" },
            { kind: "scenario", id: "no-such-scenario", environmentVersionId: "v", validatorVersionIds: [] },
            { kind: "trajectory", id: "no-such-trajectory" },
          ],
        },
      },
      alice,
      send,
    );
    expect(unknown).toEqual({
      selected: 3,
      decided: 0,
      skipped: [
        { kind: "environment", id: "no-such-env", reason: "not found" },
        { kind: "scenario", id: "no-such-scenario", reason: "not found" },
        { kind: "trajectory", id: "no-such-trajectory", reason: "not found" },
      ],
    });
    // More items match the filter than one bulk takes: refused, nothing decided.
    await createManyEnvironments(t.db, project.id, BULK_CAP, () => ({ status: "IN_REVIEW" }));
    await expect(
      bulkAccept(t.db, project.id, { selection: { mode: "filter", filter: {}, asOf: now() } }, alice, send),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("narrow the filter") as unknown,
    });
    expect(await t.db.environment.count({ where: { projectId: project.id, status: "ACCEPTED" } })).toBe(0);
  });

  it("rejects a flagged trajectory once: a second bulk finds it decided", async () => {
    const { project, envs, alice } = await world(1);
    const s = await createScenario(t.db, envs[0]!.id);
    const traj = await createTrajectory(t.db, s.id, { flagReason: "reward hacking" });
    const selection = { mode: "items" as const, items: [{ kind: "trajectory" as const, id: traj.id }] };
    expect(await bulkReject(t.db, project.id, { selection, reason: "hack" }, alice, send)).toMatchObject({
      decided: 1,
    });
    expect(await bulkReject(t.db, project.id, { selection, reason: "hack" }, alice, send)).toMatchObject({
      decided: 0,
      skipped: [{ reason: "already rejected" }],
    });
  });

  it("waits for a decision on the same flagged trajectory still open in another transaction, then skips it", async () => {
    const { project, envs, alice, bob } = await world(1);
    const s = await createScenario(t.db, envs[0]!.id);
    const traj = await createTrajectory(t.db, s.id, { flagReason: "reward hacking" });
    const seen = await currentVersionsOf(t.db, "trajectory", traj.id);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let decidedInside!: () => void;
    const inside = new Promise<void>((r) => (decidedInside = r));
    // Alice's single decision is written but not committed while Bob's bulk reject starts.
    const single = t.db.$transaction(
      async (tx) => {
        await decideItemInTx(tx, { ...seen, decision: "ACCEPT", reason: "fine" }, alice);
        decidedInside();
        await held;
      },
      { timeout: 30_000 },
    );
    await inside;
    const selection = { mode: "items" as const, items: [{ kind: "trajectory" as const, id: traj.id }] };
    const bulk = bulkReject(t.db, project.id, { selection, reason: "hack" }, bob, send);
    await new Promise((r) => setTimeout(r, 300));
    release();
    await single;
    expect(await bulk).toMatchObject({ decided: 0, skipped: [{ reason: "already accepted" }] });
    expect((await decisionsOn([traj.id])).map((d) => d.decision)).toEqual(["ACCEPT"]);
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: traj.id } })).reviewDecision).toBe(
      "ACCEPT",
    );
  });

  it("launches one proof run for the selected scenarios and skips other kinds", async () => {
    const { project, envs, alice } = await world(1);
    const s1 = await createScenario(t.db, envs[0]!.id);
    const s2 = await createScenario(t.db, envs[0]!.id);
    sent.length = 0;
    const reply = await bulkProve(
      t.db,
      project.id,
      {
        selection: {
          mode: "items",
          items: [
            ...(await itemsOf("scenario", [s1.id, s2.id])).items,
            await currentVersionsOf(t.db, "environment", envs[0]!.id),
          ],
        },
      },
      alice,
      send,
    );
    expect(reply).toMatchObject({
      selected: 3,
      decided: 2,
      skipped: [
        {
          kind: "environment",
          id: envs[0]!.id,
          reason: expect.stringContaining("only scenarios") as unknown,
        },
      ],
    });
    const run = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: reply.runId! } });
    expect(run).toMatchObject({ kind: "PROOF", createdById: alice.id });
    expect((run.input as { scenarioIds: string[] }).scenarioIds.sort()).toEqual([s1.id, s2.id].sort());
    expect(sent).toEqual([{ job: expect.stringContaining("proof") as unknown, payload: { runId: run.id } }]);
  });

  it("adds the accepted, proven selected scenarios to a dataset's next version and skips the others", async () => {
    const project = await createTestProject(t.db);
    const alice = actorOf(await createUser(t.db));
    const first = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const old = await createScenario(t.db, first.id);
    await acceptAndProveScenarios(t.db, project.id);
    const v1 = await createDatasetVersion(t.db, { projectId: project.id, name: "bulk-set", isNew: true });
    const second = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const ready = await createScenario(t.db, second.id);
    const draft = await createScenario(t.db, second.id);
    await t.db.environment.update({
      where: { id: second.id },
      data: { status: "ACCEPTED", acceptedVersionId: second.currentVersionId },
    });
    await acceptAndProveScenario(t.db, ready.id);
    const reply = await bulkAddToDataset(
      t.db,
      project.id,
      { selection: await itemsOf("scenario", [ready.id, draft.id]), datasetId: v1.datasetId },
      alice,
    );
    expect(reply).toMatchObject({
      selected: 2,
      decided: 1,
      dataset: { id: v1.datasetId, name: "bulk-set", version: 2 },
      skipped: [{ kind: "scenario", id: draft.id }],
    });
    const v2 = await t.db.datasetVersion.findFirstOrThrow({
      where: { datasetId: v1.datasetId, version: 2 },
      include: { items: true },
    });
    expect(v2.items.map((i) => i.scenarioId).sort()).toEqual([old.id, ready.id].sort());
    expect(v2.createdById).toBe(alice.id);
    // Nothing addable: no version is made.
    const none = await bulkAddToDataset(
      t.db,
      project.id,
      { selection: await itemsOf("scenario", [draft.id]), datasetId: v1.datasetId },
      alice,
    );
    expect(none).toMatchObject({ decided: 0, dataset: null });
    expect(await t.db.datasetVersion.count({ where: { datasetId: v1.datasetId } })).toBe(2);
  });

  it("adds scenarios ticked on the Scenarios list by the same rules, and refuses bad input", async () => {
    const project = await createTestProject(t.db);
    const alice = actorOf(await createUser(t.db));
    const viewer = actorOf(await createUser(t.db, { role: "VIEWER" }));
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const first = await createScenario(t.db, env.id);
    await acceptAndProveScenarios(t.db, project.id);
    const v1 = await createDatasetVersion(t.db, { projectId: project.id, name: "from-list", isNew: true });
    const later = await createScenario(t.db, env.id);
    const draft = await createScenario(t.db, env.id);
    await acceptAndProveScenario(t.db, later.id);
    const reply = await addScenariosToDataset(
      t.db,
      project.id,
      { datasetId: v1.datasetId, scenarioIds: [later.id, draft.id, "no-such-scenario", later.id] },
      alice,
    );
    expect(reply).toMatchObject({ selected: 3, decided: 1, dataset: { version: 2 } });
    expect(reply.skipped.map((x) => x.id).sort()).toEqual([draft.id, "no-such-scenario"].sort());
    expect(reply.skipped.find((x) => x.id === "no-such-scenario")?.reason).toBe("not found");
    const v2 = await t.db.datasetVersion.findFirstOrThrow({
      where: { datasetId: v1.datasetId, version: 2 },
      include: { items: true },
    });
    expect(v2.items.map((i) => i.scenarioId).sort()).toEqual([first.id, later.id].sort());

    const versions = await t.db.datasetVersion.count();
    await expect(
      addScenariosToDataset(t.db, project.id, { datasetId: v1.datasetId, scenarioIds: [later.id] }, viewer),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      addScenariosToDataset(t.db, project.id, { datasetId: v1.datasetId, scenarioIds: [] }, alice),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      addScenariosToDataset(t.db, project.id, { datasetId: "nope", scenarioIds: [later.id] }, alice),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await t.db.datasetVersion.count()).toBe(versions);
  });

  it("sorts the queue on the server, so the loaded rows are the first in that order", async () => {
    const project = await createTestProject(t.db);
    for (const [name, domain] of [
      ["beta", "x"],
      ["alpha", "z"],
      ["gamma", "y"],
    ])
      await createEnvironment(t.db, project.id, { status: "IN_REVIEW", name, domain });
    const titles = async (sort: "title" | "domain", dir: "asc" | "desc") =>
      (await findReviewQueue(t.db, project.id, { sort, dir }, { id: null })).items.map((i) => i.title);
    expect(await titles("title", "asc")).toEqual(["alpha", "beta", "gamma"]);
    expect(await titles("title", "desc")).toEqual(["gamma", "beta", "alpha"]);
    expect(await titles("domain", "asc")).toEqual(["beta", "gamma", "alpha"]);
  });
});
