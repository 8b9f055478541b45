/**
 * Every route handler the pages call, with its answer's schema. Route handlers answer through these
 * descriptors (`respondWith` in app/api/respond.ts) and pages call them through `fetchApi`, so both
 * ends use one schema. A new route the pages call is one entry here.
 */
import { z } from "zod";
import {
  type EnvironmentListFilters,
  EnvironmentListPageSchema,
  environmentListSearch,
} from "../environments/environment.schema";
import {
  type VersionRowsQuery,
  VersionRowDetailSchema,
  VersionRowsPageSchema,
  versionRowsSearch,
} from "../datasets/version-rows.schema";
import {
  type EligibleEnvironmentsQuery,
  EligibleEnvironmentsPageSchema,
  eligibleEnvironmentsSearch,
} from "../datasets/eligible-environments.schema";
import { ExportViewSchema } from "../export/export-view";
import { ImportReplySchema } from "../import/import-form.schema";
import { RunSummarySchema, RunViewSchema } from "../pipeline/run-view.schema";
import {
  type ClaimInput,
  ClaimReplySchema,
  type DecideItemInputSchema,
  DecisionReplySchema,
  QueuePreviewSchema,
  ReleaseReplySchema,
  UndoReplySchema,
} from "../review/review.schema";
import {
  type BulkAcceptInput,
  type BulkAddToDatasetInput,
  type BulkProveInput,
  type BulkRejectInput,
  BulkReplySchema,
} from "../review/bulk.schema";
import { defineRoute, jsonRoute, queryRoute, queryString } from "./api-route";

const segment = encodeURIComponent;

export const API = {
  /** The run page: progress per stage, cost, failures, environments, topics, steps. */
  runDetail: queryRoute(({ id }: { id: string }) => `/api/runs/${segment(id)}`, RunViewSchema),
  /** The launch panel: status, cost and step counts by stage. */
  runSummary: queryRoute(({ id }: { id: string }) => `/api/runs/${segment(id)}/summary`, RunSummarySchema),
  datasetExports: queryRoute(
    ({ datasetId }: { datasetId: string }) => `/api/datasets/${segment(datasetId)}/exports`,
    z.array(ExportViewSchema),
  ),
  /** The dataset page's row browser: one searched page of a version's items. */
  datasetVersionRows: queryRoute(
    ({ versionId, ...query }: { versionId: string } & Partial<VersionRowsQuery>) => {
      const search = versionRowsSearch(query);
      return `/api/dataset-versions/${segment(versionId)}/rows${search ? `?${search}` : ""}`;
    },
    VersionRowsPageSchema,
  ),
  /** One item of a version and the scenario record its export writes. */
  datasetVersionRow: queryRoute(
    ({ versionId, scenarioId }: { versionId: string; scenarioId: string }) =>
      `/api/dataset-versions/${segment(versionId)}/rows/${segment(scenarioId)}`,
    VersionRowDetailSchema,
  ),
  /** The dataset forms' environment picker: one searched page of what a dataset can be made from. */
  eligibleEnvironments: queryRoute((query: Partial<EligibleEnvironmentsQuery>) => {
    const search = eligibleEnvironmentsSearch(query);
    return `/api/datasets/eligible-environments${search ? `?${search}` : ""}`;
  }, EligibleEnvironmentsPageSchema),
  environmentList: queryRoute((filters: EnvironmentListFilters) => {
    const search = environmentListSearch(filters);
    return `/api/environments${search ? `?${search}` : ""}`;
  }, EnvironmentListPageSchema),
  /** Multipart: `files` with `paths`, optional `className`, `envId`, `onExisting`. */
  importFiles: defineRoute({
    method: "POST",
    send: "form",
    url: (_form: FormData) => "/api/imports",
    response: ImportReplySchema,
  }),
  reviewPreview: queryRoute(
    (item: ClaimInput) => `/api/review/preview${queryString(item)}`,
    QueuePreviewSchema,
  ),
  reviewClaim: jsonRoute((_item: ClaimInput) => "/api/review/claims", ClaimReplySchema),
  reviewRelease: jsonRoute((_item: ClaimInput) => "/api/review/claims", ReleaseReplySchema, "DELETE"),
  /** The same release for navigator.sendBeacon (sendBeaconApi), which can only POST. */
  reviewReleaseBeacon: jsonRoute((_item: ClaimInput) => "/api/review/claims/release", ReleaseReplySchema),
  reviewDecision: jsonRoute(
    (_decision: z.input<typeof DecideItemInputSchema>) => "/api/review/decisions",
    DecisionReplySchema,
  ),
  reviewUndo: jsonRoute((_empty: Record<string, never>) => "/api/review/undo", UndoReplySchema),
  /** Bulk decisions on the review queue (docs/review.md#bulk-decisions). */
  reviewBulkAccept: jsonRoute((_input: BulkAcceptInput) => "/api/review/bulk/accept", BulkReplySchema),
  reviewBulkReject: jsonRoute((_input: BulkRejectInput) => "/api/review/bulk/reject", BulkReplySchema),
  reviewBulkProve: jsonRoute((_input: BulkProveInput) => "/api/review/bulk/prove", BulkReplySchema),
  reviewBulkDataset: jsonRoute(
    (_input: BulkAddToDatasetInput) => "/api/review/bulk/dataset",
    BulkReplySchema,
  ),
};
