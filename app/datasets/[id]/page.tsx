import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { findEligibleEnvironments } from "@/lib/datasets/server/find-eligible-environments";
import { getDatasetDetail } from "@/lib/datasets/server/get-dataset-detail";
import { findVersionRows } from "@/lib/datasets/server/find-version-rows";
import { VersionRowsQuerySchema } from "@/lib/datasets/version-rows.schema";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { findDatasetExports } from "@/lib/export/server/find-exports";
import { findExportReadiness } from "@/lib/export/server/find-export-readiness";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { ExportsPanel } from "@/components/datasets/exports-panel";
import { FORMAT_CHOICES } from "@/lib/export/formats/registry";
import { NewVersionForm } from "@/components/datasets/new-version-form";
import { RolloutsLauncher } from "@/components/datasets/rollouts-launcher";
import { VersionRowsBrowser } from "@/components/datasets/version-rows-browser";
import { VersionList } from "@/components/datasets/version-list";
import { Card, EmptyState } from "@/components/ui/states";
import { RepairButton } from "@/components/repair/repair-button";
import { launchRepairAction } from "@/app/review/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dataset" };

async function load(id: string, shownVersion: number | null) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    const detail = await getDatasetDetail(db, project.id, id);
    const shown = detail.versions.find((v) => v.version === shownVersion) ?? detail.versions[0];
    const [environments, exports, items, readiness] = await Promise.all([
      findEligibleEnvironments(db, project.id),
      findDatasetExports(db, detail.dataset.id),
      shown ? findVersionRows(db, shown.id, VersionRowsQuerySchema.parse({})) : null,
      findExportReadiness(db, detail.versions),
    ]);
    return { ...detail, environments, exports, shown, rows: items, readiness };
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}

export default async function DatasetPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ v?: string }>;
}) {
  const [{ id }, { v }, user] = await Promise.all([params, searchParams, currentUser()]);
  const canEdit = roleAtLeast(user.role, "REVIEWER");
  const { dataset, versions, latestItems, environments, exports, shown, rows, readiness } = await load(
    id,
    v ? Number(v) : null,
  );
  const latest = versions[0];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <Link href="/datasets" className="text-sm text-indigo-700 underline">
          Datasets
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{dataset.name}</h1>
        {dataset.description ? <p className="text-sm text-slate-500">{dataset.description}</p> : null}
      </div>
      <Card title="Versions">
        {latest ? <VersionList versions={versions} /> : <EmptyState title="No versions" />}
      </Card>
      {latest ? (
        <>
          {shown ? (
            <Card
              title={
                <>
                  {`Contents of v${shown.version}${shown.overrideReason ? ` · override: ${shown.overrideReason}` : ""}`}{" "}
                  <Link
                    href={`/corpus?dataset=${encodeURIComponent(shown.id)}`}
                    className="ml-2 text-xs font-normal text-indigo-700 underline"
                  >
                    Corpus map of v{shown.version}
                  </Link>
                </>
              }
            >
              {rows ? (
                <VersionRowsBrowser
                  key={shown.id}
                  datasetId={dataset.id}
                  versionId={shown.id}
                  versions={versions.map((x) => x.version)}
                  shown={shown.version}
                  initialData={rows}
                />
              ) : null}
              {canEdit ? (
                <RepairButton target={{ kind: "datasetVersion", id: shown.id }} action={launchRepairAction} />
              ) : null}
            </Card>
          ) : null}
          <Card title="Exports">
            <ExportsPanel
              datasetId={dataset.id}
              versions={versions.map((x) => ({ id: x.id, version: x.version }))}
              initial={exports}
              canExport={canEdit}
              formats={FORMAT_CHOICES}
              readiness={readiness}
            />
          </Card>
          {canEdit ? (
            <Card title={`Rollouts of v${latest.version} (difficulty)`}>
              <RolloutsLauncher dataset={dataset.name} version={latest.version} />
            </Card>
          ) : null}
          {canEdit ? (
            <Card title={`New version (from v${latest.version})`}>
              <NewVersionForm
                name={dataset.name}
                seed={latest.seed}
                testRatio={latest.testRatio}
                environments={environments}
                items={latestItems}
              />
            </Card>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
