import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createTestProject } from "@/prisma/seed/factories";
import { deployMigrations, diffMigrations } from "./migrate";

const t = useTestDatabase();

describe("migrations", () => {
  it("the migrations folder matches prisma/schema.prisma (no drift)", async () => {
    expect(await diffMigrations(t.url)).toBe("");
  });

  it("deploy is idempotent on an up-to-date database", async () => {
    expect(await deployMigrations(t.url)).toEqual([]);
  });
});

describe("review log", () => {
  it("is append-only: updates and deletes are refused by the database", async () => {
    const project = await createTestProject(t.db);
    const decision = await t.db.reviewDecision.create({
      data: {
        projectId: project.id,
        targetType: "SCENARIO",
        targetId: "s1",
        decision: "ACCEPT",
        reason: "looks right",
      },
    });
    await expect(
      t.db.reviewDecision.update({ where: { id: decision.id }, data: { reason: "rewritten" } }),
    ).rejects.toThrow(/append-only/);
    await expect(t.db.reviewDecision.delete({ where: { id: decision.id } })).rejects.toThrow(/append-only/);
    expect((await t.db.reviewDecision.findUniqueOrThrow({ where: { id: decision.id } })).reason).toBe(
      "looks right",
    );
  });
});

describe("idempotent step keys", () => {
  it("a duplicate (run, subject, stage) step is refused, so re-enqueueing cannot duplicate work", async () => {
    const project = await createTestProject(t.db);
    const run = await t.db.pipelineRun.create({ data: { projectId: project.id, kind: "SKEL_BUILDER" } });
    await t.db.pipelineStep.create({ data: { runId: run.id, subjectKey: "idea-1", stage: "infer-state" } });
    await expect(
      t.db.pipelineStep.create({ data: { runId: run.id, subjectKey: "idea-1", stage: "infer-state" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});
