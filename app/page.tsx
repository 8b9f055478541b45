import Link from "next/link";
import { getDb } from "@/lib/db";
import { DASHBOARD_REFRESH_MS, getDashboard } from "@/lib/dashboard/server/get-dashboard";
import { currentUser } from "@/lib/auth/server/require-role";
import { DashboardCharts } from "@/components/dashboard/dashboard-charts";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { findLiveWorkers } from "@/lib/jobs/server/heartbeat";
import { Card, EmptyState } from "@/components/ui/states";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { BarList } from "@/components/dashboard/bar-list";

export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  await currentUser();
  const db = getDb();
  const project = await getDefaultProject(db);
  const [{ stats, charts, computedAt }, workers] = await Promise.all([
    getDashboard(db, project.id),
    findLiveWorkers(db),
  ]);
  return (
    <div className="space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
        <p className="text-sm text-slate-500" data-testid="worker-status">
          {workers.length
            ? `${workers.length} worker${workers.length > 1 ? "s" : ""} online`
            : "No worker online"}
        </p>
      </div>
      <p className="text-xs text-slate-500" data-testid="dashboard-as-of">
        Figures as of {new Date(computedAt).toISOString().slice(11, 19)} UTC (recomputed at most every{" "}
        {DASHBOARD_REFRESH_MS / 1000} s; the lists are live)
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <Stat label="Environments" value={stats.environments} href="/environments" />
        <Stat label="Scenarios" value={stats.scenarios} />
        <Stat label="Trajectories" value={stats.trajectories} />
      </div>
      {stats.environments === 0 ? (
        <EmptyState title="No environments yet">
          Start the studio with <code>ENVSTUDIO_SEED_SAMPLES=1</code> to load the samples, or import
          environments.
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          <Card title="Environments by status">
            <BarList
              rows={stats.byStatus.map((r) => ({
                label: statusLabel(r.status),
                value: r.count,
                href: `/environments?status=${r.status}`,
              }))}
            />
          </Card>
          <Card title="Environments by domain">
            <BarList
              rows={stats.byDomain.map((r) => ({
                label: r.domain,
                value: r.count,
                href: `/environments?domain=${encodeURIComponent(r.domain)}`,
              }))}
            />
          </Card>
        </div>
      )}
      <DashboardCharts charts={charts} />
      <Card title="Recent runs">
        {stats.recentRuns.length === 0 ? (
          <p className="text-sm text-slate-500">No pipeline runs yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {stats.recentRuns.map((run) => (
              <li key={run.id} className="flex items-center justify-between py-2">
                <span>{run.name || run.kind}</span>
                <StatusBadge status={run.status} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function Stat({ label, value, href }: { label: string; value: number; href?: string }) {
  const body = (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid={`stat-${label.toLowerCase()}`}>
        {value.toLocaleString("en-US")}
      </p>
    </div>
  );
  return href ? <Link href={href}>{body}</Link> : body;
}
