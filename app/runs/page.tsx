import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { listRuns } from "@/lib/pipeline/server/get-run";
import { getLlmConfig, isDemoModel, isDemoStudio } from "@/lib/llm";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { NewRunForm } from "@/components/runs/new-run-form";
import { DemoModelBadge, StatusBadge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/states";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  const user = await currentUser();
  const db = getDb();
  const project = await getDefaultProject(db);
  const runs = await listRuns(db, project.id);
  const cfg = getLlmConfig();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Runs</h1>
      {roleAtLeast(user.role, "REVIEWER") ? (
        <Card title="New SkelBuilder run">
          <NewRunForm
            defaults={{
              modelMain: cfg.defaultModel,
              modelCheck: cfg.checkModel,
              modelEmbedding: cfg.embeddingModel ?? "",
              endpointConfigured: cfg.baseUrl !== null,
              isDemo: isDemoStudio(),
            }}
          />
        </Card>
      ) : null}
      <Card title="Recent runs">
        {runs.length === 0 ? (
          <EmptyState title="No runs yet">A reviewer starts one from an idea or uploaded tasks.</EmptyState>
        ) : (
          <table className="w-full text-left text-sm" data-testid="runs-table">
            <thead>
              <tr className="text-slate-500">
                <th>Run</th>
                <th>Status</th>
                <th>Environments</th>
                <th>Tokens</th>
                <th>Cost</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} data-testid="run-row">
                  <td>
                    <Link className="text-indigo-700 underline" href={`/runs/${r.id}`}>
                      {r.name || r.id}
                    </Link>
                    {r.models.some(isDemoModel) ? (
                      <>
                        {" "}
                        <DemoModelBadge />
                      </>
                    ) : null}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>{r.environments}</td>
                  <td>{r.tokens}</td>
                  <td>${r.costUsd.toFixed(4)}</td>
                  <td>{r.createdAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
