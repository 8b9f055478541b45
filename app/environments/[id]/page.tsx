import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { parseTools } from "@/lib/environments/environment.schema";
import { getEnvironmentOrThrow } from "@/lib/environments/server/get-environment";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { CodeViewer } from "@/components/code/code-viewer";
import { AcceptanceLine } from "@/components/environments/acceptance-line";
import { ToolTable } from "@/components/environments/tool-table";
import { Badge, SampleBadge, StatusBadge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/states";
import { RunLauncher } from "@/components/scenarios/run-launcher";
import { readLlmConfig } from "@/lib/llm";
import { findEnvironmentRuns } from "@/lib/scenarios/server/launch-runs";
import {
  archiveEnvironmentAction,
  launchGenerationAction,
  launchProofAction,
  launchRolloutsAction,
} from "./actions";
import { ArchiveControl } from "@/components/environments/archive-control";
import { findAuditLog } from "@/lib/review/server/find-audit-log";
import { RepairButton } from "@/components/repair/repair-button";
import { launchRepairAction } from "@/app/review/actions";
import { orNotFound } from "@/app/or-not-found";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  const env = await orNotFound(getEnvironmentOrThrow(db, project.id, decodeURIComponent(id)));
  return Object.assign(env, { projectId: project.id });
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const env = await load((await params).id);
  return { title: env.name };
}

const Rules = z.array(z.string()).catch([]);

export default async function EnvironmentPage({ params }: Props) {
  const canEdit = roleAtLeast((await currentUser()).role, "REVIEWER");
  const env = await load((await params).id);
  const version = env.currentVersion;
  const tools = parseTools(version?.tools);
  const rules = Rules.parse(version?.rules);
  const [runs, archiveLog] = await Promise.all([
    findEnvironmentRuns(getDb(), env.id),
    findAuditLog(getDb(), env.projectId, [{ targetType: "ENVIRONMENT", targetIds: [env.id] }], 5),
  ]);
  return (
    <div className="space-y-5">
      <div>
        <Link href="/environments" className="text-sm text-indigo-700 hover:underline">
          ← Environments
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">{env.name}</h1>
          <StatusBadge status={env.status} />
          {env.origin === "SAMPLE" ? <SampleBadge /> : null}
          {env.archivedAt ? (
            <span data-testid="archived-badge">
              <Badge tone="gray">Archived</Badge>
            </span>
          ) : null}
        </div>
        <p className="mt-1 text-sm text-slate-500" data-testid="environment-facts">
          {env.domain} · <code>{version?.className ?? "no code yet"}</code> · version{" "}
          {version?.version ?? "—"} · {tools.length} tools · {env.scenarios.length} scenarios
        </p>
        <AcceptanceLine
          environmentId={env.id}
          status={env.status}
          currentVersionId={env.currentVersionId}
          acceptedVersionId={env.acceptedVersionId}
          versions={env.versions}
        />
        {canEdit ? (
          <div className="mt-2">
            <ArchiveControl
              environmentId={env.id}
              archivedAt={env.archivedAt?.toISOString() ?? null}
              action={archiveEnvironmentAction}
            />
          </div>
        ) : null}
        {archiveLog.length ? (
          <ul className="mt-1 text-xs text-slate-500" aria-label="Archive history">
            {archiveLog.map((a) => (
              <li key={a.id}>
                {a.decision === "ARCHIVE" ? "Archived" : "Restored"} by {a.actor} at{" "}
                {a.createdAt.slice(0, 16).replace("T", " ")}
                {a.reason ? `: ${a.reason}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
        {version ? (
          <nav aria-label="Environment" className="mt-2 flex flex-wrap gap-4 text-sm">
            {canEdit ? (
              <Link href={`/environments/${env.id}/edit`} className="text-indigo-700 hover:underline">
                Edit code
              </Link>
            ) : null}
            {canEdit ? (
              <Link href={`/environments/${env.id}/playground`} className="text-indigo-700 hover:underline">
                Tool playground
              </Link>
            ) : null}
            <Link href={`/environments/${env.id}/quality`} className="text-indigo-700 hover:underline">
              Quality review
            </Link>
            <Link href={`/environments/${env.id}/versions`} className="text-indigo-700 hover:underline">
              Versions ({env.versions.length})
            </Link>
          </nav>
        ) : null}
      </div>
      <Card title="Description">
        <p className="text-sm leading-6 text-slate-700">{env.description || "No description."}</p>
        {rules.length ? (
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600">
            {rules.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
      </Card>
      <Card title={`Tools (${tools.length})`}>
        <ToolTable tools={tools} />
      </Card>
      <Card title="Code">
        {version ? <CodeViewer source={version.source} /> : <EmptyState title="No code version yet" />}
      </Card>
      {canEdit ? (
        <section id="scenario-launcher" className="scroll-mt-4">
          <Card title="Scenario generation, proof and rollouts">
            <RunLauncher
              environmentId={env.id}
              defaultModel={readLlmConfig().defaultModel}
              recentRunIds={runs.map((r) => r.id)}
              actions={{
                generate: launchGenerationAction,
                prove: launchProofAction,
                rollouts: launchRolloutsAction,
              }}
            />
            <RepairButton target={{ kind: "environment", id: env.id }} action={launchRepairAction} />
          </Card>
        </section>
      ) : null}
      <Card title={`Scenarios (${env.scenarios.length})`}>
        {env.scenarios.length === 0 ? (
          <p className="text-sm text-slate-500">No scenarios yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="scenario-list">
            {env.scenarios.map((s) => (
              <li key={s.id} className="py-3">
                <div className="flex items-center gap-2">
                  <Link href={`/scenarios/${s.id}`} className="text-xs text-indigo-700 hover:underline">
                    <code>{s.externalId}</code>
                  </Link>
                  <StatusBadge status={s.status} />
                  <span className="text-xs text-slate-500">proof:</span>{" "}
                  <StatusBadge status={s.proofStatus} />
                  <span className="text-xs text-slate-500">
                    {z.array(z.unknown()).catch([]).parse(s.checklist).length} checks
                  </span>
                </div>
                <p className="mt-1 line-clamp-3 text-slate-700">{s.task}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
