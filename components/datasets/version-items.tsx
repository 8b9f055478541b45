import Link from "next/link";
import type { VersionItem } from "@/lib/datasets/dataset.schema";

/** What one version holds, pinned: environment and check versions as numbers, overrides marked. */
export function VersionItems({
  datasetId,
  versions,
  shown,
  items,
}: {
  datasetId: string;
  versions: number[];
  shown: number;
  items: VersionItem[];
}) {
  return (
    <div className="space-y-2">
      <nav className="flex flex-wrap gap-2 text-sm" aria-label="Show version">
        {versions.map((v) => (
          <Link
            key={v}
            href={`/datasets/${datasetId}?v=${v}`}
            aria-current={v === shown ? "page" : undefined}
            className={v === shown ? "font-semibold" : "text-indigo-700 underline"}
          >
            v{v}
          </Link>
        ))}
      </nav>
      <table className="w-full text-left text-xs" data-testid="version-items">
        <thead>
          <tr className="text-slate-500">
            <th>Scenario</th>
            <th>Environment version</th>
            <th>Check versions</th>
            <th>Split</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.scenarioId} data-testid="version-item">
              <td className="font-mono">{i.key}</td>
              <td data-testid="pinned-environment">v{i.environmentVersion}</td>
              <td data-testid="pinned-checks">
                {i.validatorVersions.map((v) => `v${v}`).join(" · ") || "—"}
              </td>
              <td>{i.split.toLowerCase()}</td>
              <td>{i.overridden ? <span className="text-amber-800">entered by override</span> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
