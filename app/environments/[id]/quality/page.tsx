import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { qualitySummary } from "@/lib/review/quality-summary";
import { getQualityReview } from "@/lib/review/server/get-quality-review";
import { AuditLog } from "@/components/review/audit-log";
import { DecisionPanel } from "@/components/review/decision-panel";
import { ProbeTable } from "@/components/review/probe-table";
import { StatusBadge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/states";
import { RepairButton } from "@/components/repair/repair-button";
import { launchRepairAction } from "@/app/review/actions";
import { loadEnvironmentHead } from "../../load-environment";
import { firstParam, type SearchValue } from "@/app/search-param";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Quality review" };

export default async function QualityPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ version?: SearchValue }>;
}) {
  const user = await currentUser();
  const env = await loadEnvironmentHead((await params).id);
  const versionId = firstParam((await searchParams).version) ?? env.currentVersion.id;
  const { checks, versionsWithChecks, audit } = await getQualityReview(
    getDb(),
    env.projectId,
    env.id,
    versionId,
  );
  const canReview = roleAtLeast(user.role, "REVIEWER");
  const [latest, ...older] = checks;
  // A probe failed (the reviewer's verdict over the judge's) on the head's newest check: the
  // model can be asked to repair the tools, proven before anyone sees it.
  const failedProbes =
    versionId === env.currentVersion.id && latest
      ? latest.probes.filter((p) => (p.reviewerVerdict ?? p.verdict) === "FAIL").length
      : 0;
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/environments/${env.id}`} className="text-sm text-indigo-700 hover:underline">
          ← {env.name}
        </Link>
        <div className="mt-1 flex items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Quality review</h1>
          <StatusBadge status={env.status} />
        </div>
        <p className="text-sm text-slate-500">
          Head is version {env.currentVersion.version}.
          {versionsWithChecks.length ? " Checked versions: " : " No version has been checked yet."}
          {versionsWithChecks.map((v) => (
            <Link
              key={v.id}
              href={`?version=${v.id}`}
              className={`ml-2 ${v.id === versionId ? "font-semibold" : "text-indigo-700 hover:underline"}`}
            >
              v{v.version}
            </Link>
          ))}
        </p>
      </div>
      {latest ? (
        <Card
          title={
            <span data-testid="quality-summary">
              Dual-agent check: {latest.passCount} pass · {latest.warningCount} warning · {latest.failCount}{" "}
              fail (judge) — {qualitySummary(latest).text}
            </span>
          }
        >
          <ProbeTable canReview={canReview} probes={latest.probes} />
          {canReview && failedProbes > 0 && env.status !== "REJECTED" ? (
            <div className="mt-3">
              <RepairButton
                target={{ kind: "environment", id: env.id }}
                action={launchRepairAction}
                label={`Repair the tools of ${failedProbes} failed probe(s)`}
              />
            </div>
          ) : null}
          {older.length ? (
            <p className="mt-2 text-xs text-slate-500">
              {older.length} earlier check(s) on this version are kept in the database.
            </p>
          ) : null}
        </Card>
      ) : (
        <EmptyState title="No quality check for this version">
          The pipeline writes one after SkelBuilder; you can still decide below.
        </EmptyState>
      )}
      <div className="grid gap-4 md:grid-cols-2 [&>*]:min-w-0">
        <Card title="Decision on the environment">
          {versionId === env.currentVersion.id ? (
            <DecisionPanel
              id={env.id}
              seen={{ kind: "environment", versionId: env.currentVersion.id }}
              canDecide={canReview}
            />
          ) : (
            <p className="text-sm text-slate-500">
              Decisions apply to the head version (v{env.currentVersion.version}).
            </p>
          )}
        </Card>
        <Card title="Audit log">
          <AuditLog entries={audit} />
        </Card>
      </div>
    </div>
  );
}
