import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { respondWith } from "../../respond";
import { apiRoute } from "../../api-route";
import { IdParamsSchema } from "../../params";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id → progress per stage, cost, failures, environments, topics, steps (polled by the run page). */
export const GET = apiRoute(
  { role: "VIEWER", schema: IdParamsSchema, input: (_request, params: { id: string }) => params },
  async ({ id }) => respondWith(API.runDetail, await getRunProgress(getDb(), id)),
);
