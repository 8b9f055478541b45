import { NextResponse } from "next/server";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDb } from "@/lib/db";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { errorResponse } from "../../respond";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id → progress per stage, cost, failures, environments, topics, steps (polled by the run page). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    await currentUser();
    const { id } = await params;
    return NextResponse.json(await getRunProgress(getDb(), id));
  } catch (error) {
    return errorResponse(error);
  }
}
