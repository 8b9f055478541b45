import { NextResponse } from "next/server";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { getRunProgress } from "@/lib/runs/server/run-lifecycle";
import { apiRoute } from "../../../api-route";
import { IdParamsSchema } from "../../../params";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/summary → status, cost and step counts by stage (polled by the launch panel). */
export const GET = apiRoute(
  { role: "VIEWER", schema: IdParamsSchema, input: (_request, params: { id: string }) => params },
  async ({ id }) => {
    const progress = await getRunProgress(getDb(), id);
    if (!progress) throw new AppError("NOT_FOUND", "Run not found.");
    return NextResponse.json(progress);
  },
);
