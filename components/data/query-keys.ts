/**
 * Every TanStack Query key the studio uses, one factory per data shape: a key names exactly one
 * route's answer, so two components never read different shapes under the same key, and a write
 * invalidates by the same factories it was read with.
 */
import { type EnvironmentListFilters, environmentListSearch } from "@/lib/environments/environment.schema";
import type { ClaimInput } from "@/lib/review/review.schema";
import { type VersionRowsQuery, versionRowsSearch } from "@/lib/datasets/version-rows.schema";
import {
  type EligibleEnvironmentsQuery,
  eligibleEnvironmentsSearch,
} from "@/lib/datasets/eligible-environments.schema";

export const queryKeys = {
  run: {
    /** Every run's data: what a review decision may change (the statuses of a run's environments). */
    any: ["run"] as const,
    /** Everything about one run (its detail and its summary). */
    all: (id: string) => ["run", id] as const,
    detail: (id: string) => ["run", id, "detail"] as const,
    summary: (id: string) => ["run", id, "summary"] as const,
  },
  datasetVersion: {
    /** One searched page of a version's items; one item with its exported record. */
    rows: (versionId: string, query: VersionRowsQuery) =>
      ["dataset-version", versionId, "rows", versionRowsSearch(query)] as const,
    row: (versionId: string, scenarioId: string) =>
      ["dataset-version", versionId, "row", scenarioId] as const,
  },
  exports: {
    ofDataset: (datasetId: string) => ["exports", datasetId] as const,
  },
  environments: {
    /** Every list page and filter: what an import or a decision may change. */
    all: ["environments"] as const,
    /** The tools and markers of an unsaved source text (the editor's live analysis). */
    analysis: (environmentId: string, source: string) => ["source-analysis", environmentId, source] as const,
    list: (filters: EnvironmentListFilters) =>
      ["environments", "list", environmentListSearch(filters)] as const,
    /** One searched page of the environments a dataset can be made from. */
    eligible: (query: EligibleEnvironmentsQuery) =>
      ["environments", "eligible", eligibleEnvironmentsSearch(query)] as const,
  },
  review: {
    /** Everything the review pages read: what a decision or an undo may change. */
    all: ["review"] as const,
    preview: (item: ClaimInput) => ["review", "preview", item.kind, item.id] as const,
  },
};
