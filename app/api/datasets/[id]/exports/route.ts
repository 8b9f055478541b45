import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { findDatasetExports } from "@/lib/export/server/find-exports";
import { respondWith } from "../../../respond";
import { apiRoute } from "../../../api-route";
import { IdParamsSchema } from "../../../params";

export const dynamic = "force-dynamic";

/** GET /api/datasets/:id/exports → the dataset's exports with progress (polled by the dataset page). */
export const GET = apiRoute(
  { role: "VIEWER", schema: IdParamsSchema, input: (_request, params: { id: string }) => params },
  async ({ id }) => respondWith(API.datasetExports, await findDatasetExports(getDb(), id)),
);
