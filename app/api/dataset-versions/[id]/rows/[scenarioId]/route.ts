import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getVersionRow } from "@/lib/datasets/server/find-version-rows";
import { VersionRowDetailInputSchema } from "@/lib/datasets/version-rows.schema";
import { apiRoute } from "../../../../api-route";
import { respondWith } from "../../../../respond";

export const dynamic = "force-dynamic";

/** GET /api/dataset-versions/:id/rows/:scenarioId → the row and the scenario record its export writes. */
export const GET = apiRoute(
  {
    role: "VIEWER",
    schema: VersionRowDetailInputSchema,
    input: (_request, params: { id: string; scenarioId: string }) => params,
  },
  async ({ id, scenarioId }) =>
    respondWith(API.datasetVersionRow, await getVersionRow(getDb(), id, scenarioId)),
);
