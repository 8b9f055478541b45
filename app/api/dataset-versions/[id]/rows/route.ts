import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { findVersionRows } from "@/lib/datasets/server/find-version-rows";
import { VersionRowsInputSchema } from "@/lib/datasets/version-rows.schema";
import { apiRoute } from "../../../api-route";
import { readQuery, respondWith } from "../../../respond";

export const dynamic = "force-dynamic";

/** GET /api/dataset-versions/:id/rows?q=&split=&page=&pageSize= → { items, total, page, pageSize } */
export const GET = apiRoute(
  {
    role: "VIEWER",
    schema: VersionRowsInputSchema,
    input: (request, params: { id: string }) => ({ ...readQuery(request), id: params.id }),
  },
  async ({ id, ...query }) => respondWith(API.datasetVersionRows, await findVersionRows(getDb(), id, query)),
);
