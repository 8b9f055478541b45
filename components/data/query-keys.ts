/**
 * Every TanStack Query key the studio uses, one factory per data shape: a key names exactly one
 * route's answer, so two components never read different shapes under the same key, and a write
 * invalidates by the same factories it was read with.
 */
import { type EnvironmentListFilters, environmentListSearch } from "@/lib/environments/environment.schema";
import type { ClaimInput } from "@/lib/review/review.schema";

export const queryKeys = {
  run: {
    /** Every run's data: what a review decision may change (the statuses of a run's environments). */
    any: ["run"] as const,
    /** Everything about one run (its detail and its summary). */
    all: (id: string) => ["run", id] as const,
    detail: (id: string) => ["run", id, "detail"] as const,
    summary: (id: string) => ["run", id, "summary"] as const,
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
  },
  review: {
    /** Everything the review pages read: what a decision or an undo may change. */
    all: ["review"] as const,
    preview: (item: ClaimInput) => ["review", "preview", item.kind, item.id] as const,
  },
};
