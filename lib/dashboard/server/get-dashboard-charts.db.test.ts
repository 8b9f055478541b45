import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  createEnvironment,
  createQualityCheck,
  createScenario,
  createTestProject,
  createTrajectory,
} from "@/prisma/seed/factories";
import { getDashboardCharts } from "./get-dashboard-charts";

const t = useTestDatabase();
const total = (b: { value: number }[]) => b.reduce((a, x) => a + x.value, 0);

describe("dashboard charts", () => {
  it("are empty for an empty project", async () => {
    const project = await createTestProject(t.db);
    const charts = await getDashboardCharts(t.db, project.id);
    expect(total(charts.toolsPerEnvironment) + total(charts.rewards) + total(charts.spendByDay)).toBe(0);
    expect(charts.spendByDay).toHaveLength(30);
  });

  it("aggregate tools, scenarios, latest quality checks, proofs, rewards and spend by day", async () => {
    const project = await createTestProject(t.db);
    const a = await createEnvironment(t.db, project.id, { tools: Array.from({ length: 12 }, () => ({})) });
    await createEnvironment(t.db, project.id);
    const s1 = await createScenario(t.db, a.id);
    await createScenario(t.db, a.id);
    await createQualityCheck(t.db, a.currentVersionId!, ["FAIL"]);
    await createQualityCheck(t.db, a.currentVersionId!, ["PASS"]); // the re-check supersedes
    await createTrajectory(t.db, s1.id, { reward: 1 });
    await createTrajectory(t.db, s1.id, { reward: 0.25 });
    const run = await t.db.pipelineRun.create({ data: { projectId: project.id, kind: "SKEL_BUILDER" } });
    const now = new Date("2026-12-02T12:00:00Z");
    await t.db.llmCall.createMany({
      data: [
        {
          cacheKey: "k1",
          model: "m",
          request: {},
          costUsd: 0.5,
          runId: run.id,
          createdAt: new Date("2026-12-01T08:00:00Z"),
        },
        {
          cacheKey: "k2",
          model: "m",
          request: {},
          costUsd: 0.25,
          runId: run.id,
          createdAt: new Date("2026-12-01T20:00:00Z"),
        },
      ],
    });
    const charts = await getDashboardCharts(t.db, project.id, now);
    expect(charts.toolsPerEnvironment.find((b) => b.label === "10–14")?.value).toBe(1);
    expect(charts.scenariosPerEnvironment.find((b) => b.label === "0")?.value).toBe(1);
    expect(charts.scenariosPerEnvironment.find((b) => b.label === "1–4")?.value).toBe(1);
    expect(charts.quality).toEqual({ passed: 1, failed: 0 });
    expect(charts.proofOutcomes).toEqual([{ status: "PENDING", count: 2 }]);
    expect(charts.rewards[9]?.value).toBe(1);
    expect(charts.rewards[2]?.value).toBe(1);
    expect(charts.spendByDay.find((d) => d.label === "2026-12-01")?.value).toBeCloseTo(0.75);
    expect(charts.totalSpendUsd).toBeCloseTo(0.75);
  });
});
