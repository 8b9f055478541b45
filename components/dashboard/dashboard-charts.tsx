import type { DashboardCharts as Charts } from "@/lib/dashboard/charts";
import { statusLabel } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";
import { BarList } from "./bar-list";
import { ColumnChart } from "./column-chart";

const usd = (v: number) => `$${v.toFixed(v < 1 ? 4 : 2)}`;

/** The second row of the dashboard: distributions and trends; every chart has an empty state. */
export function DashboardCharts({ charts }: { charts: Charts }) {
  const checked = charts.quality.passed + charts.quality.failed;
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      <Card title="Tools per environment">
        <ColumnChart data={charts.toolsPerEnvironment} testId="chart-tools" />
      </Card>
      <Card title="Scenarios per environment">
        <ColumnChart data={charts.scenariosPerEnvironment} testId="chart-scenarios" />
      </Card>
      <Card
        title={
          checked
            ? `Quality pass rates (${charts.quality.passed}/${checked} versions passed)`
            : "Quality pass rates"
        }
      >
        <ColumnChart data={charts.qualityPassRates} format={(v) => `${v} versions`} testId="chart-quality" />
      </Card>
      <Card title="Proof outcomes">
        {charts.proofOutcomes.length ? (
          <BarList
            rows={charts.proofOutcomes.map((p) => ({ label: statusLabel(p.status), value: p.count }))}
          />
        ) : (
          <p className="text-sm text-slate-500">No scenarios yet.</p>
        )}
      </Card>
      <Card title="Rollout reward distribution">
        <ColumnChart data={charts.rewards} format={(v) => `${v} trajectories`} testId="chart-rewards" />
      </Card>
      <Card title={`LLM spend, last 30 days (${usd(charts.totalSpendUsd)})`}>
        <ColumnChart data={charts.spendByDay} format={usd} labelEvery={7} testId="chart-spend" />
      </Card>
    </div>
  );
}
