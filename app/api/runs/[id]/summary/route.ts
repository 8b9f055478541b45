import { NextResponse } from "next/server";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDb } from "@/lib/db";
import { getRunProgress, toRunSummary } from "@/lib/pipeline/server/get-run";
import { errorResponse } from "../../../respond";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/summary → status, cost and step counts by stage (polled by the launch panel). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    await currentUser();
    return NextResponse.json(toRunSummary(await getRunProgress(getDb(), (await params).id)));
  } catch (error) {
    return errorResponse(error);
  }
}
