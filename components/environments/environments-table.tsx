import Link from "next/link";
import type { EnvironmentListItem } from "@/lib/environments/environment.schema";
import { collidingNames } from "@/lib/environments/name-collisions";
import { Badge, SampleBadge, StatusBadge } from "@/components/ui/badge";

export function EnvironmentsTable({ items, dimmed }: { items: EnvironmentListItem[]; dimmed?: boolean }) {
  const clash = collidingNames(items);
  return (
    <div
      className={`overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm ${dimmed ? "opacity-60" : ""}`}
    >
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Name</th>
            <th className="px-4 py-2 font-medium">Domain</th>
            <th className="px-4 py-2 font-medium">Status</th>
            <th className="px-4 py-2 text-right font-medium">Tools</th>
            <th className="px-4 py-2 text-right font-medium">Scenarios</th>
            <th className="px-4 py-2 font-medium">Updated</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((env) => (
            <tr key={env.id} className="hover:bg-slate-50" data-testid="environment-row">
              <td className="px-4 py-2">
                <Link
                  href={`/environments/${env.id}`}
                  className="font-medium text-indigo-700 hover:underline"
                >
                  {env.name}
                </Link>{" "}
                {clash.has(env.name) ? (
                  <code className="text-xs text-slate-500" title="env_id: this name is shared">
                    {env.slug}
                  </code>
                ) : null}{" "}
                {env.origin === "SAMPLE" ? <SampleBadge /> : null}
                {env.archivedAt ? <Badge tone="gray">Archived</Badge> : null}
              </td>
              <td className="px-4 py-2 text-slate-600">{env.domain}</td>
              <td className="px-4 py-2">
                <StatusBadge status={env.status} />
              </td>
              <td className="px-4 py-2 text-right tabular-nums">{env.toolCount}</td>
              <td className="px-4 py-2 text-right tabular-nums">{env.scenarioCount}</td>
              <td className="px-4 py-2 text-slate-500">
                <time dateTime={env.updatedAt}>{env.updatedAt.slice(0, 10)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
