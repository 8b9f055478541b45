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
import { defineRoute, queryString } from "./api-route";

const segment = encodeURIComponent;

export const API = {
  /** The run page: progress per stage, cost, failures, environments, topics, steps. */
  runDetail: defineRoute({
    method: "GET",
    send: "query",
    url: ({ id }: { id: string }) => `/api/runs/${segment(id)}`,
    response: RunViewSchema,
  }),
  /** The launch panel: status, cost and step counts by stage. */
  runSummary: defineRoute({
    method: "GET",
    send: "query",
    url: ({ id }: { id: string }) => `/api/runs/${segment(id)}/summary`,
    response: RunSummarySchema,
  }),
  datasetExports: defineRoute({
    method: "GET",
    send: "query",
    url: ({ datasetId }: { datasetId: string }) => `/api/datasets/${segment(datasetId)}/exports`,
    response: z.array(ExportViewSchema),
  }),
  /** The dataset page's row browser: one searched page of a version's items. */
  datasetVersionRows: defineRoute({
    method: "GET",
    send: "query",
    url: ({ versionId, ...query }: { versionId: string } & Partial<VersionRowsQuery>) => {
      const search = versionRowsSearch(query);
      return `/api/dataset-versions/${segment(versionId)}/rows${search ? `?${search}` : ""}`;
    },
    response: VersionRowsPageSchema,
  }),
  /** One item of a version and the scenario record its export writes. */
  datasetVersionRow: defineRoute({
    method: "GET",
    send: "query",
    url: ({ versionId, scenarioId }: { versionId: string; scenarioId: string }) =>
      `/api/dataset-versions/${segment(versionId)}/rows/${segment(scenarioId)}`,
    response: VersionRowDetailSchema,
  }),
  environmentList: defineRoute({
    method: "GET",
    send: "query",
    url: (filters: EnvironmentListFilters) => {
      const search = environmentListSearch(filters);
      return `/api/environments${search ? `?${search}` : ""}`;
    },
    response: EnvironmentListPageSchema,
  }),
  /** Multipart: `files` with `paths`, optional `className`, `envId`, `onExisting`. */
  importFiles: defineRoute({
    method: "POST",
    send: "form",
    url: (_form: FormData) => "/api/imports",
    response: ImportReplySchema,
  }),
  reviewPreview: defineRoute({
    method: "GET",
    send: "query",
    url: (item: ClaimInput) => `/api/review/preview${queryString(item)}`,
    response: QueuePreviewSchema,
  }),
  reviewClaim: defineRoute({
    method: "POST",
    send: "json",
    url: (_item: ClaimInput) => "/api/review/claims",
    response: ClaimReplySchema,
  }),
  reviewRelease: defineRoute({
    method: "DELETE",
    send: "json",
    url: (_item: ClaimInput) => "/api/review/claims",
    response: ReleaseReplySchema,
  }),
  /** The same release for navigator.sendBeacon (sendBeaconApi), which can only POST. */
  reviewReleaseBeacon: defineRoute({
    method: "POST",
    send: "json",
    url: (_item: ClaimInput) => "/api/review/claims/release",
    response: ReleaseReplySchema,
  }),
  reviewDecision: defineRoute({
    method: "POST",
    send: "json",
    url: (_decision: z.input<typeof DecideItemInputSchema>) => "/api/review/decisions",
    response: DecisionReplySchema,
  }),
  reviewUndo: defineRoute({
    method: "POST",
    send: "json",
    url: (_empty: Record<string, never>) => "/api/review/undo",
    response: UndoReplySchema,
  }),
  /** Bulk decisions on the review queue (docs/review.md#bulk-decisions). */
  reviewBulkAccept: defineRoute({
    method: "POST",
    send: "json",
    url: (_input: BulkAcceptInput) => "/api/review/bulk/accept",
    response: BulkReplySchema,
  }),
  reviewBulkReject: defineRoute({
    method: "POST",
    send: "json",
    url: (_input: BulkRejectInput) => "/api/review/bulk/reject",
    response: BulkReplySchema,
  }),
  reviewBulkProve: defineRoute({
    method: "POST",
    send: "json",
    url: (_input: BulkProveInput) => "/api/review/bulk/prove",
    response: BulkReplySchema,
  }),
  reviewBulkDataset: defineRoute({
    method: "POST",
    send: "json",
    url: (_input: BulkAddToDatasetInput) => "/api/review/bulk/dataset",
    response: BulkReplySchema,
  }),
};
