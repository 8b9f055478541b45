import type { DatasetChangelog, DatasetStats } from "@/lib/datasets/dataset.schema";

export type VersionSummary = {
  id: string;
  version: number;
  seed: number;
  testRatio: number;
  createdAt: Date;
  stats: DatasetStats | null;
  changelog: DatasetChangelog | null;
};

function Changelog({ log }: { log: DatasetChangelog }) {
  if (log.previousVersion === null) return <p className="text-xs text-slate-500">First version.</p>;
  const parts = [
    log.added.length ? `+${log.added.length} added` : "",
    log.removed.length ? `−${log.removed.length} removed` : "",
    log.repinned.length ? `${log.repinned.length} re-pinned` : "",
    log.movedEnvironments.length ? `${log.movedEnvironments.length} environments changed split` : "",
    log.seedChanged ? "seed changed" : "",
  ].filter(Boolean);
  return (
    <details className="text-xs text-slate-600" data-testid="changelog">
      <summary className="cursor-pointer">
        Since v{log.previousVersion}: {parts.length ? parts.join(", ") : "no changes"}
      </summary>
      <ul className="mt-1 space-y-0.5 font-mono">
        {log.added.map((k) => (
          <li key={`a${k}`} className="text-emerald-700">
            + {k}
          </li>
        ))}
        {log.removed.map((k) => (
          <li key={`r${k}`} className="text-rose-700">
            − {k}
          </li>
        ))}
        {log.repinned.map((k) => (
          <li key={`p${k}`}>~ {k} (re-pinned)</li>
        ))}
        {log.movedEnvironments.map((m) => (
          <li key={`m${m.environment}`}>
            ↔ {m.environment}: {m.from.toLowerCase()} → {m.to.toLowerCase()}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function VersionList({ versions }: { versions: VersionSummary[] }) {
  return (
    <table className="w-full text-left text-sm" data-testid="versions-table">
      <thead>
        <tr className="text-slate-500">
          <th>Version</th>
          <th>Scenarios</th>
          <th>Environments</th>
          <th>Train</th>
          <th>Test</th>
          <th>Seed · ratio</th>
          <th>Created</th>
          <th>Changes</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.id} data-testid="version-row" className="align-top">
            <td className="font-medium">v{v.version}</td>
            <td className="tabular-nums" data-testid="stat-scenarios">
              {v.stats?.scenarios ?? "—"}
            </td>
            <td className="tabular-nums">{v.stats?.environments ?? "—"}</td>
            <td className="tabular-nums" data-testid="stat-train">
              {v.stats ? `${v.stats.train.scenarios} scen. / ${v.stats.train.environments} env.` : "—"}
            </td>
            <td className="tabular-nums" data-testid="stat-test">
              {v.stats ? `${v.stats.test.scenarios} scen. / ${v.stats.test.environments} env.` : "—"}
            </td>
            <td>
              {v.seed} · {v.testRatio}
            </td>
            <td>{v.createdAt.toISOString().slice(0, 16).replace("T", " ")}</td>
            <td>{v.changelog ? <Changelog log={v.changelog} /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
