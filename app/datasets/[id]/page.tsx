import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { findEligibleEnvironments, getDatasetDetail } from "@/lib/datasets/server/get-dataset-detail";
import { getDb } from "@/lib/db";
import { findDatasetExports } from "@/lib/export/server/find-exports";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { ExportsPanel } from "@/components/datasets/exports-panel";
import { NewVersionForm } from "@/components/datasets/new-version-form";
import { VersionList } from "@/components/datasets/version-list";
import { Card, EmptyState } from "@/components/ui/states";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dataset" };

async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    const detail = await getDatasetDetail(db, project.id, id);
    const [environments, exports] = await Promise.all([findEligibleEnvironments(db, project.id), findDatasetExports(db, detail.dataset.id)]);
    return { ...detail, environments, exports };
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}

export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { dataset, versions, latestItems, environments, exports } = await load(id);
  const latest = versions[0];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <Link href="/datasets" className="text-sm text-indigo-700 underline">Datasets</Link>
        <h1 className="text-2xl font-semibold tracking-tight">{dataset.name}</h1>
        {dataset.description ? <p className="text-sm text-slate-500">{dataset.description}</p> : null}
      </div>
      <Card title="Versions">
        {latest ? <VersionList versions={versions} /> : <EmptyState title="No versions" />}
      </Card>
      {latest ? (
        <>
          <Card title="Exports"><ExportsPanel datasetId={dataset.id} latestVersionId={latest.id} initial={exports} /></Card>
          <Card title={`New version (from v${latest.version})`}>
            <NewVersionForm name={dataset.name} seed={latest.seed} testRatio={latest.testRatio} environments={environments} items={latestItems} />
          </Card>
        </>
      ) : null}
    </div>
  );
}
