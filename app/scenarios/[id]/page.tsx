import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { isAppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { getScenarioBenchOrThrow } from "@/lib/scenarios/server/get-scenario-bench";
import { AuditLog } from "@/components/review/audit-log";
import { DecisionPanel } from "@/components/review/decision-panel";
import { ValidatorBench } from "@/components/scenarios/validator-bench";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Scenario" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ trajectory?: string }> };

async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    return await getScenarioBenchOrThrow(db, project.id, decodeURIComponent(id));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export default async function ScenarioPage({ params, searchParams }: Props) {
  const user = await currentUser();
  const { scenario, audit } = await load((await params).id);
  const { trajectory } = await searchParams;
  const canEdit = roleAtLeast(user.role, "REVIEWER");
  const reasons = z.array(z.unknown()).catch([]).parse(scenario.proofReasons).map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
  const hasGold = z.array(z.unknown()).catch([]).parse(scenario.goldCalls).length > 0;
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/environments/${scenario.environment.id}`} className="text-sm text-indigo-700 hover:underline">← {scenario.environment.name}</Link>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Scenario <code className="text-lg">{scenario.externalId}</code></h1>
          <StatusBadge status={scenario.status} />
          <span className="text-sm text-slate-500">proof:</span> <StatusBadge status={scenario.proofStatus} />
        </div>
        <p className="mt-2 max-w-4xl text-sm leading-6 text-slate-700">{scenario.task}</p>
        {reasons.length ? <ul className="mt-1 list-disc pl-5 text-sm text-amber-800">{reasons.map((r) => <li key={r}>{r}</li>)}</ul> : null}
        {/* Hook for the scenarios issue: "re-run the proof" (no-op, gold, sensitivity) is a job it owns. */}
        <p className="mt-1 text-xs text-slate-500" data-hook="rerun-proof">
          {scenario.proofStatus === "STALE" ? "The proof is stale (a check changed); re-running it is part of the scenario pipeline." : null}
        </p>
      </div>
      <Card title={`Validator test bench (${scenario.validators.length} checks)`}>
        <ValidatorBench
          scenarioId={scenario.id} canEdit={canEdit} hasGold={hasGold} initialTrajectory={scenario.trajectories.some((t) => t.id === trajectory) ? trajectory : undefined}
          trajectories={scenario.trajectories.map((t) => ({ id: t.id, label: `${t.model} · reward ${t.reward.toFixed(2)}${t.flagReason ? ` · flagged: ${t.flagReason}` : ""}` }))}
          validators={scenario.validators.filter((v) => v.currentVersion).map((v) => ({
            id: v.id, position: v.position, checkItem: v.checkItem, base: { id: v.currentVersion!.id, version: v.currentVersion!.version, code: v.currentVersion!.code }, text: v.currentVersion!.code,
          }))}
        />
      </Card>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Decision on the scenario">
          <DecisionPanel kind="scenario" id={scenario.id} canDecide={canEdit} />
          {trajectory ? (
            <div className="mt-4 border-t border-slate-100 pt-3">
              <p className="mb-2 text-sm font-medium">Flagged trajectory</p>
              <DecisionPanel kind="trajectory" id={trajectory} canDecide={canEdit} />
            </div>
          ) : null}
        </Card>
        <Card title="Audit log"><AuditLog entries={audit} /></Card>
      </div>
    </div>
  );
}
