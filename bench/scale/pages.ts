/**
 * Each page's server time: exactly the data calls its server component (or, for the dataset
 * preview, its server action) makes, with the page's default arguments or the named search,
 * filter or sort. Rendering is not timed; the data is what grows with the corpus.
 */
import type { Db } from "../../lib/db";
import { getDashboard } from "../../lib/dashboard/server/get-dashboard";
import { getDashboardCharts } from "../../lib/dashboard/server/get-dashboard-charts";
import { getDashboardStats } from "../../lib/dashboard/server/get-dashboard-stats";
import { DatasetPreviewFormSchema } from "../../lib/datasets/dataset-form.schema";
import { findDatasets } from "../../lib/datasets/server/find-datasets";
import { findVersionRows } from "../../lib/datasets/server/find-version-rows";
import { findEligibleEnvironments } from "../../lib/datasets/server/find-eligible-environments";
import { getDatasetDetail } from "../../lib/datasets/server/get-dataset-detail";
import { VersionRowsQuerySchema } from "../../lib/datasets/version-rows.schema";
import { parseListQuery } from "../../lib/environments/environment.schema";
import { findDomains, findEnvironments } from "../../lib/environments/server/find-environments";
import { findDatasetExports } from "../../lib/export/server/find-exports";
import { findExportReadiness } from "../../lib/export/server/find-export-readiness";
import { findLiveWorkers } from "../../lib/jobs/server/heartbeat";
import { getDefaultProject } from "../../lib/projects/server/get-default-project";
import { QueueFilterSchema } from "../../lib/review/review.schema";
import { findReviewQueue } from "../../lib/review/server/find-review-queue";
import { findScenarios } from "../../lib/scenarios/server/get-scenario";
// What app/datasets/actions.ts previewDatasetVersionAction calls; swap here when it changes.
import { previewDatasetPage as previewForAction } from "../../lib/datasets/server/preview-dataset-page";

export type Page = { name: string; label: string; load: (db: Db) => Promise<unknown>; slow?: boolean };

/** Search terms present in the seeded corpus: a domain, a surname (~2.5 % of tasks), one order number. */
export const TERMS = { domain: "library", surname: "Okafor", order: "#0079190" };

const REVIEWER = { id: "bench-reviewer" };

function listQuery(params: Record<string, string>) {
  const q = parseListQuery(params);
  if (!q.success) throw new Error(q.error.message);
  return q.data;
}

async function environmentsPage(db: Db, params: Record<string, string>) {
  const project = await getDefaultProject(db);
  return Promise.all([findEnvironments(db, project.id, listQuery(params)), findDomains(db, project.id)]);
}

async function scenariosPage(db: Db, q?: string) {
  const project = await getDefaultProject(db);
  const scenarios = await findScenarios(db, project.id, { q });
  const datasets = await db.dataset.findMany({
    where: { projectId: project.id },
    orderBy: { name: "asc" },
    select: { id: true, name: true },
  });
  return [scenarios, datasets];
}

async function reviewPage(db: Db, raw: Record<string, string>) {
  const project = await getDefaultProject(db);
  const filter = QueueFilterSchema.parse(raw);
  return Promise.all([findReviewQueue(db, project.id, filter, REVIEWER), findDatasets(db, project.id)]);
}

/** app/datasets/[id]/page.tsx `load`: the detail, then the row browser's first page beside the rest. */
async function datasetPage(db: Db, id: string) {
  const project = await getDefaultProject(db);
  const detail = await getDatasetDetail(db, project.id, id);
  const shown = detail.versions[0];
  return Promise.all([
    findEligibleEnvironments(db, project.id),
    findDatasetExports(db, detail.dataset.id),
    shown ? findVersionRows(db, shown.id, VersionRowsQuerySchema.parse({})) : null,
    findExportReadiness(db, detail.versions),
  ]);
}

export const PAGES: Page[] = [
  {
    name: "dashboard",
    label: "Dashboard (figures served from memory)",
    load: async (db) => {
      const project = await getDefaultProject(db);
      return Promise.all([getDashboard(db, project.id), findLiveWorkers(db)]);
    },
  },
  {
    // What a first view after a start waits for, and what the background refresh costs.
    name: "dashboard_compute",
    label: "Dashboard figures computed (first view, refresh)",
    load: async (db) => {
      const project = await getDefaultProject(db);
      return Promise.all([getDashboardStats(db, project.id), getDashboardCharts(db, project.id)]);
    },
  },
  { name: "environments", label: "Environments, first page", load: (db) => environmentsPage(db, {}) },
  {
    name: "environments_search",
    label: `Environments, search "${TERMS.domain}"`,
    load: (db) => environmentsPage(db, { q: TERMS.domain }),
  },
  {
    name: "environments_status",
    label: "Environments, status IN_REVIEW",
    load: (db) => environmentsPage(db, { status: "IN_REVIEW" }),
  },
  { name: "scenarios", label: "Scenarios, first page", load: (db) => scenariosPage(db) },
  {
    name: "scenarios_search",
    label: `Scenarios, search "${TERMS.surname}"`,
    load: (db) => scenariosPage(db, TERMS.surname),
  },
  {
    name: "scenarios_search_rare",
    label: `Scenarios, search "${TERMS.order}" (one match)`,
    load: (db) => scenariosPage(db, TERMS.order),
  },
  { name: "review", label: "Review queue", load: (db) => reviewPage(db, {}) },
  {
    name: "review_filtered",
    label: `Review queue, domain ${TERMS.domain}, sorted by title`,
    load: (db) => reviewPage(db, { domain: TERMS.domain, sort: "title", dir: "asc" }),
  },
  {
    name: "review_search",
    label: `Review queue, search "${TERMS.surname}"`,
    load: (db) => reviewPage(db, { q: TERMS.surname }),
  },
  {
    name: "datasets",
    label: "Datasets list",
    load: async (db) => {
      const project = await getDefaultProject(db);
      return Promise.all([findDatasets(db, project.id), findEligibleEnvironments(db, project.id)]);
    },
  },
  { name: "dataset", label: "Dataset page (100,000-item version)", load: (db) => datasetPage(db, "ds0") },
  {
    name: "dataset_rows_search",
    label: `Dataset rows, search "${TERMS.surname}"`,
    load: (db) => findVersionRows(db, "dv0", VersionRowsQuerySchema.parse({ q: TERMS.surname })),
  },
  {
    name: "dataset_rows_page_100",
    label: "Dataset rows, page 100",
    load: (db) => findVersionRows(db, "dv0", VersionRowsQuerySchema.parse({ page: 100 })),
  },
  {
    name: "dataset_preview",
    label: "Dataset preview (new dataset, every accepted environment)",
    slow: true,
    load: async (db) => {
      const project = await getDefaultProject(db);
      // As previewDatasetVersionAction: the preview's first page of its lists.
      const { page, ...input } = DatasetPreviewFormSchema.parse({ name: "scale-preview", isNew: true });
      return previewForAction(db, { ...input, projectId: project.id }, page);
    },
  },
];
