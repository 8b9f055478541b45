/**
 * The reads pages make, each a key from query-keys.ts bound to its route in lib/api/routes.ts: a
 * component spreads one into useQuery and adds only what is its own (initial data, polling).
 */
import { queryOptions } from "@tanstack/react-query";
import { fetchApi } from "@/lib/api/fetch-api";
import { API } from "@/lib/api/routes";
import type { EnvironmentListFilters } from "@/lib/environments/environment.schema";
import type { ClaimInput } from "@/lib/review/review.schema";
import type { VersionRowsQuery } from "@/lib/datasets/version-rows.schema";
import type { EligibleEnvironmentsQuery } from "@/lib/datasets/eligible-environments.schema";
import { queryKeys } from "./query-keys";

export const queries = {
  runDetail: (id: string) =>
    queryOptions({
      queryKey: queryKeys.run.detail(id),
      queryFn: ({ signal }) => fetchApi(API.runDetail, { id }, { signal }),
    }),
  runSummary: (id: string) =>
    queryOptions({
      queryKey: queryKeys.run.summary(id),
      queryFn: ({ signal }) => fetchApi(API.runSummary, { id }, { signal }),
    }),
  datasetExports: (datasetId: string) =>
    queryOptions({
      queryKey: queryKeys.exports.ofDataset(datasetId),
      queryFn: ({ signal }) => fetchApi(API.datasetExports, { datasetId }, { signal }),
    }),
  datasetVersionRows: (versionId: string, query: VersionRowsQuery) =>
    queryOptions({
      queryKey: queryKeys.datasetVersion.rows(versionId, query),
      queryFn: ({ signal }) => fetchApi(API.datasetVersionRows, { versionId, ...query }, { signal }),
    }),
  datasetVersionRow: (versionId: string, scenarioId: string) =>
    queryOptions({
      queryKey: queryKeys.datasetVersion.row(versionId, scenarioId),
      queryFn: ({ signal }) => fetchApi(API.datasetVersionRow, { versionId, scenarioId }, { signal }),
    }),
  eligibleEnvironments: (query: EligibleEnvironmentsQuery) =>
    queryOptions({
      queryKey: queryKeys.environments.eligible(query),
      queryFn: ({ signal }) => fetchApi(API.eligibleEnvironments, query, { signal }),
    }),
  environmentList: (filters: EnvironmentListFilters) =>
    queryOptions({
      queryKey: queryKeys.environments.list(filters),
      queryFn: ({ signal }) => fetchApi(API.environmentList, filters, { signal }),
    }),
  reviewPreview: (item: ClaimInput) =>
    queryOptions({
      queryKey: queryKeys.review.preview(item),
      queryFn: ({ signal }) => fetchApi(API.reviewPreview, { kind: item.kind, id: item.id }, { signal }),
    }),
};
