/** getRunProgress is the one progress query for every run kind; the launch panel reads its summary projection. */
import { describe, expect, it } from "vitest";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { getRunProgress, toRunSummary } from "./get-run";

const t = useTestDatabase();

describe("getRunProgress", () => {
  it("counts the steps of any run kind by stage and status, and the summary keeps every stage", async () => {
    const project = await createTestProject(t.db, "progress");
    const run = await t.db.pipelineRun.create({
      data: {
        projectId: project.id,
        kind: "SCEN_GENERATOR",
        name: "scenarios",
        status: "RUNNING",
        config: {},
        input: {},
      },
    });
    await t.db.pipelineStep.createMany({
      data: [
        { runId: run.id, subjectKey: "s0", stage: "initial_state", status: "SUCCEEDED" },
        { runId: run.id, subjectKey: "s1", stage: "initial_state", status: "SUCCEEDED" },
        { runId: run.id, subjectKey: "s0", stage: "check_func:0", status: "FAILED", errorMessage: "no" },
        { runId: run.id, subjectKey: "s1", stage: "check_func:0", status: "PENDING" },
      ],
    });
    const progress = await getRunProgress(t.db, run.id);
    expect(progress.run.isTerminal).toBe(false);
    expect(progress.stepCounts).toEqual({
      initial_state: { SUCCEEDED: 2 },
      "check_func:0": { FAILED: 1, PENDING: 1 },
    });
    expect(toRunSummary(progress)).toMatchObject({
      id: run.id,
      kind: "SCEN_GENERATOR",
      status: "RUNNING",
      costUsd: 0,
      errorMessage: null,
      stages: progress.stepCounts,
    });
  });

  it("refuses an unknown run as NOT_FOUND", async () => {
    await expect(getRunProgress(t.db, "no-such-run")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
