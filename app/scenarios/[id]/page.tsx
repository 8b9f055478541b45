import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { getScenarioBenchOrThrow } from "@/lib/scenarios/server/get-scenario-bench";
import { getScenarioOrThrow } from "@/lib/scenarios/server/get-scenario";
import { CodeViewer } from "@/components/code/code-viewer";
import { AuditLog } from "@/components/review/audit-log";
import { DecisionPanel } from "@/components/review/decision-panel";
import { ProofPanel } from "@/components/scenarios/proof-panel";
import { StrengthPanel } from "@/components/scenarios/strength-panel";
import { TrajectoryTable } from "@/components/scenarios/trajectory-table";
import { ValidatorBench } from "@/components/scenarios/validator-bench";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";
import { orNotFound } from "@/app/or-not-found";
import { firstParam, type SearchValue } from "@/app/search-param";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Scenario" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ trajectory?: SearchValue }> };

/** The scenario page: proof evidence, validator test bench, trajectories, decision and audit log. */
async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  const bench = await orNotFound(getScenarioBenchOrThrow(db, project.id, decodeURIComponent(id)));
  const detail = await orNotFound(getScenarioOrThrow(db, project.id, bench.scenario.id));
  return { ...bench, detail };
}

export default async function ScenarioPage({ params, searchParams }: Props) {
  const user = await currentUser();
  const { scenario, audit, detail } = await load((await params).id);
  const trajectory = firstParam((await searchParams).trajectory);
  const canEdit = roleAtLeast(user.role, "REVIEWER");
  const hasGold = z.array(z.unknown()).catch([]).parse(scenario.goldCalls).length > 0;
  return (
    <div className="space-y-4">
      <div>
        <Link
          href={`/environments/${scenario.environment.id}`}
          className="text-sm text-indigo-700 hover:underline"
        >
          ← {scenario.environment.name}
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">
            Scenario <code className="text-lg">{scenario.externalId}</code>
          </h1>
          <StatusBadge status={scenario.status} />
          <span className="text-sm text-slate-500">proof:</span> <StatusBadge status={detail.proofStatus} />
        </div>
      </div>
      <Card title="Task">
        <p className="max-w-4xl text-sm leading-6 text-slate-700" data-testid="scenario-task">
          {detail.task}
        </p>
      </Card>
      <Card title="Validator proof">
        <ProofPanel
          status={detail.proofStatus}
          reasons={detail.proofReasons}
          proof={detail.proofs[0]}
          items={detail.validators.map((v) => v.checkItem)}
        />
      </Card>
      <Card title="Validator strength">
        <StrengthPanel strength={detail.strength} items={detail.validators.map((v) => v.checkItem)} />
      </Card>
      <Card title={`Checklist (${detail.validators.length})`}>
        <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid="validators">
          {detail.validators.map((v) => (
            <li key={v.id}>
              {v.checkItem}{" "}
              <span className="text-xs text-slate-500">v{v.currentVersion?.version ?? "—"}</span>
            </li>
          ))}
        </ol>
      </Card>
      <Card title={`Validator test bench (${scenario.validators.length} checks)`}>
        <ValidatorBench
          scenarioId={scenario.id}
          canEdit={canEdit}
          isAccepted={scenario.status === "ACCEPTED"}
          hasGold={hasGold}
          initialTrajectory={scenario.trajectories.some((t) => t.id === trajectory) ? trajectory : undefined}
          trajectories={scenario.trajectories.map((t) => ({
            id: t.id,
            label: `${t.model} · reward ${t.reward.toFixed(2)}${t.flagReason ? ` · flagged: ${t.flagReason}` : ""}`,
          }))}
          validators={scenario.validators
            .filter((v) => v.currentVersion)
            .map((v) => ({
              id: v.id,
              position: v.position,
              checkItem: v.checkItem,
              base: {
                id: v.currentVersion!.id,
                version: v.currentVersion!.version,
                code: v.currentVersion!.code,
              },
              text: v.currentVersion!.code,
            }))}
        />
      </Card>
      <Card title="Initial state">
        <CodeViewer source={JSON.stringify(detail.initialState, null, 2)} height="20rem" />
      </Card>
      <Card title={`Trajectories (${detail.trajectories.length})`}>
        <TrajectoryTable trajectories={detail.trajectories} />
      </Card>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Decision on the scenario">
          <DecisionPanel
            id={scenario.id}
            seen={{
              kind: "scenario",
              environmentVersionId: detail.environment.currentVersionId ?? "",
              validatorVersionIds: detail.validators.flatMap((v) =>
                v.currentVersion ? [v.currentVersion.id] : [],
              ),
            }}
            canDecide={canEdit}
          />
          {trajectory ? (
            <div className="mt-4 border-t border-slate-100 pt-3">
              <p className="mb-2 text-sm font-medium">Flagged trajectory</p>
              <DecisionPanel id={trajectory} seen={{ kind: "trajectory" }} canDecide={canEdit} />
            </div>
          ) : null}
        </Card>
        <Card title="Audit log">
          <AuditLog entries={audit} />
        </Card>
      </div>
    </div>
  );
}
