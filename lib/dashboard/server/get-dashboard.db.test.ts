/**
 * The dashboard is served from memory between refreshes: a view within the refresh interval gets
 * the figures already computed; the first view after it still gets them at once and starts a
 * recomputation, which later views see. Each project has its own figures.
 */
import { describe, expect, it, vi } from "vitest";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { DASHBOARD_REFRESH_MS, getDashboard } from "./get-dashboard";
import { getDashboardStats } from "./get-dashboard-stats";

const t = useTestDatabase();

describe("getDashboard", () => {
  it("serves the computed figures until the refresh interval, then recomputes them in the background", async () => {
    const project = await createTestProject(t.db, "dash-cache");
    const env = await createEnvironment(t.db, project.id);
    await createScenario(t.db, env.id);
    let clock = Date.parse("2026-12-02T12:00:00Z");
    const now = () => clock;

    const first = await getDashboard(t.db, project.id, now);
    expect(first.stats).toEqual(await getDashboardStats(t.db, project.id));
    expect(first.stats).toMatchObject({ environments: 1, scenarios: 1 });

    await createEnvironment(t.db, project.id);
    clock += DASHBOARD_REFRESH_MS - 1;
    expect((await getDashboard(t.db, project.id, now)).stats.environments).toBe(1);

    clock += 1;
    // Due: this view still gets the figures at hand; the recomputation lands for later views.
    expect((await getDashboard(t.db, project.id, now)).stats.environments).toBe(1);
    await vi.waitFor(async () => {
      const later = await getDashboard(t.db, project.id, now);
      expect(later.stats.environments).toBe(2);
      expect(later.computedAt).toBe(clock);
    });
  });

  it("keeps each project's figures apart", async () => {
    const [a, b] = [await createTestProject(t.db, "dash-a"), await createTestProject(t.db, "dash-b")];
    await createEnvironment(t.db, a.id);
    expect((await getDashboard(t.db, a.id)).stats.environments).toBe(1);
    expect((await getDashboard(t.db, b.id)).stats.environments).toBe(0);
  });
});
