import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { getScenarioOrThrow } from "@/lib/scenarios/server/get-scenario";
import { CodeViewer } from "@/components/code/code-viewer";
import { ProofPanel } from "@/components/scenarios/proof-panel";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ id: string }> };

async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    return await getScenarioOrThrow(db, project.id, decodeURIComponent(id));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Scenario ${(await load((await params).id)).externalId}` };
}

export default async function ScenarioPage({ params }: Props) {
  const s = await load((await params).id);
  return (
    <div className="space-y-5">
      <div>
        <Link href={`/environments/${s.environment.id}`} className="text-sm text-indigo-700 hover:underline">← {s.environment.name}</Link>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Scenario <code>{s.externalId}</code></h1>
          <StatusBadge status={s.status} />
        </div>
      </div>
      <Card title="Task"><p className="text-sm leading-6 text-slate-700" data-testid="scenario-task">{s.task}</p></Card>
      <Card title="Validator proof">
        <ProofPanel status={s.proofStatus} reasons={s.proofReasons} proof={s.proofs[0]} items={s.validators.map((v) => v.checkItem)} />
      </Card>
      <Card title={`Checklist and validators (${s.validators.length})`}>
        <ol className="space-y-3 text-sm" data-testid="validators">
          {s.validators.map((v) => (
            <li key={v.id}>
              <p className="font-medium text-slate-800">{v.position + 1}. {v.checkItem} <span className="text-xs font-normal text-slate-500">v{v.currentVersion?.version ?? "—"}</span></p>
              {v.currentVersion ? <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{v.currentVersion.code}</pre> : null}
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Initial state"><CodeViewer source={JSON.stringify(s.initialState, null, 2)} /></Card>
      <Card title={`Trajectories (${s.trajectories.length})`}>
        {s.trajectories.length === 0 ? <p className="text-sm text-slate-500">No rollouts yet.</p> : (
          <table className="w-full text-left text-sm" data-testid="trajectories">
            <thead className="text-xs uppercase tracking-wide text-slate-500"><tr><th className="py-1">Rollout</th><th>Model</th><th>Mode</th><th>Status</th><th>Steps</th><th>Reward</th><th>SFT</th></tr></thead>
            <tbody>
              {s.trajectories.map((t) => (
                <tr key={t.id} className="border-t border-slate-100">
                  <td className="py-1"><Link href={`/trajectories/${t.id}`} className="text-indigo-700 hover:underline">#{t.rolloutIndex}</Link></td>
                  <td>{t.model}</td><td>{t.mode.replace("_", "-")}</td><td><StatusBadge status={t.status} /></td><td>{t.stepCount}</td><td>{t.reward}</td><td>{t.sftPass === null ? "—" : t.sftPass ? "pass" : "fail"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
