import type { Metadata } from "next";
import Link from "next/link";
import { DatasetStatsSchema } from "@/lib/datasets/dataset.schema";
import { findDatasets } from "@/lib/datasets/server/find-datasets";
import { findEligibleEnvironments } from "@/lib/datasets/server/find-eligible-environments";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { NewDatasetForm } from "@/components/datasets/new-dataset-form";
import { Card, EmptyState } from "@/components/ui/states";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const canEdit = roleAtLeast((await currentUser()).role, "REVIEWER");
  const db = getDb();
  const project = await getDefaultProject(db);
  const [datasets, environments] = await Promise.all([
    findDatasets(db, project.id),
    findEligibleEnvironments(db, project.id),
  ]);
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Datasets</h1>
        {canEdit ? (
          <Link href="/datasets/import" className="ml-auto text-sm text-indigo-700 underline">
            Import environments and scenarios
          </Link>
        ) : null}
      </div>
      <Card title="Datasets">
        {datasets.length === 0 ? (
          <EmptyState title="No datasets yet">
            Create one below from accepted environments and scenarios.
          </EmptyState>
        ) : (
          <table className="w-full text-left text-sm" data-testid="datasets-table">
            <thead>
              <tr className="text-slate-500">
                <th>Name</th>
                <th>Latest</th>
                <th>Scenarios</th>
                <th>Environments</th>
                <th>Train / test scenarios</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((d) => {
                const latest = d.versions[0];
                const stats = DatasetStatsSchema.safeParse(latest?.stats).data;
                return (
                  <tr key={d.id} data-testid="dataset-row">
                    <td>
                      <Link className="text-indigo-700 underline" href={`/datasets/${d.id}`}>
                        {d.name}
                      </Link>
                    </td>
                    <td>{latest ? `v${latest.version}` : "—"}</td>
                    <td className="tabular-nums">{stats?.scenarios ?? "—"}</td>
                    <td className="tabular-nums">{stats?.environments ?? "—"}</td>
                    <td className="tabular-nums">
                      {stats ? `${stats.train.scenarios} / ${stats.test.scenarios}` : "—"}
                    </td>
                    <td>{d.createdAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      {canEdit ? (
        <Card title="New dataset">
          <NewDatasetForm environments={environments} />
        </Card>
      ) : null}
    </div>
  );
}
