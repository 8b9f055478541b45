import { NextResponse } from "next/server";
import { currentUser } from "@/lib/auth/server/require-role";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { getRunProgress } from "@/lib/runs/server/run-lifecycle";
import { errorResponse } from "../../../respond";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/summary → status, cost and step counts by stage (polled by the launch panel). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    await currentUser();
    const progress = await getRunProgress(getDb(), (await params).id);
    if (!progress) throw new AppError("NOT_FOUND", "Run not found.");
    return NextResponse.json(progress);
  } catch (error) {
    return errorResponse(error);
  }
}
