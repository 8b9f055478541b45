import "server-only";
/**
 * The dashboard's figures, served from memory and recomputed in the background at most every
 * DASHBOARD_REFRESH_MS per project (stale-while-revalidate). Its totals and distributions scan every
 * scenario and rollout of the project — about a second of database time at a million scenarios —
 * so they are not worth recomputing on every page view; a few seconds' lag on a summary is.
 * Only the first view after a start (or after the process forgot the project) waits for them.
 */
import type { Db } from "@/lib/db";
import { type DashboardCharts, getDashboardCharts } from "./get-dashboard-charts";
import { type DashboardStats, getDashboardStats } from "./get-dashboard-stats";

export const DASHBOARD_REFRESH_MS = 30_000;

export type Dashboard = { stats: DashboardStats; charts: DashboardCharts; computedAt: number };

type Entry = { value: Promise<Dashboard>; refreshing: boolean };

/** Per client (tests make their own) and per project. */
const cache = new WeakMap<Db, Map<string, Entry>>();

async function compute(db: Db, projectId: string, now: () => number): Promise<Dashboard> {
  const computedAt = now();
  const [stats, charts] = await Promise.all([
    getDashboardStats(db, projectId),
    getDashboardCharts(db, projectId, new Date(computedAt)),
  ]);
  return { stats, charts, computedAt };
}

export async function getDashboard(db: Db, projectId: string, now = Date.now): Promise<Dashboard> {
  const byProject = cache.get(db) ?? new Map<string, Entry>();
  cache.set(db, byProject);
  const entry = byProject.get(projectId);
  if (!entry) {
    const fresh: Entry = { value: compute(db, projectId, now), refreshing: false };
    byProject.set(projectId, fresh);
    // A failed computation is not kept: the next view tries again.
    fresh.value.catch(() => byProject.get(projectId) === fresh && byProject.delete(projectId));
    return fresh.value;
  }
  const served = await entry.value;
  if (now() - served.computedAt >= DASHBOARD_REFRESH_MS && !entry.refreshing) {
    entry.refreshing = true;
    compute(db, projectId, now).then(
      (value) => byProject.set(projectId, { value: Promise.resolve(value), refreshing: false }),
      () => (entry.refreshing = false),
    );
  }
  return served;
}
