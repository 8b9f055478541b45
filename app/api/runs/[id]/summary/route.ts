import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getRunProgress, toRunSummary } from "@/lib/pipeline/server/get-run";
import { respondWith } from "../../../respond";
import { apiRoute } from "../../../api-route";
import { IdParamsSchema } from "../../../params";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/summary → status, cost and step counts by stage (polled by the launch panel). */
export const GET = apiRoute(
  { role: "VIEWER", schema: IdParamsSchema, input: (_request, params: { id: string }) => params },
  async ({ id }) => respondWith(API.runSummary, toRunSummary(await getRunProgress(getDb(), id))),
);
