import "server-only";
import type { Db } from "@/lib/db";

export type DashboardStats = {
  environments: number;
  scenarios: number;
  trajectories: number;
  byStatus: { status: string; count: number }[];
  byDomain: { domain: string; count: number }[];
  recentRuns: { id: string; kind: string; status: string; name: string; createdAt: string }[];
};

export async function getDashboardStats(db: Db, projectId: string): Promise<DashboardStats> {
  const [environments, scenarios, trajectories, byStatus, byDomain, recentRuns] = await Promise.all([
    db.environment.count({ where: { projectId } }),
    db.scenario.count({ where: { environment: { projectId } } }),
    db.trajectory.count({ where: { scenario: { environment: { projectId } } } }),
    db.environment.groupBy({
      by: ["status"],
      where: { projectId },
      _count: { _all: true },
      orderBy: { status: "asc" },
    }),
    db.environment.groupBy({
      by: ["domain"],
      where: { projectId },
      _count: { _all: true },
      orderBy: { _count: { domain: "desc" } },
      take: 8,
    }),
    db.pipelineRun.findMany({
      where: { projectId },
      orderBy: { createdAt: "desc" },
      take: 5,
      select: { id: true, kind: true, status: true, name: true, createdAt: true },
    }),
  ]);
  return {
    environments,
    scenarios,
    trajectories,
    byStatus: byStatus.map((r) => ({ status: r.status, count: r._count._all })),
    byDomain: byDomain.map((r) => ({ domain: r.domain, count: r._count._all })),
    recentRuns: recentRuns.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
