import { NextResponse } from "next/server";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDb } from "@/lib/db";
import { findDatasetExports } from "@/lib/export/server/find-exports";
import { errorResponse } from "../../../respond";

export const dynamic = "force-dynamic";

/** GET /api/datasets/:id/exports → the dataset's exports with progress (polled by the dataset page). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    await currentUser();
    const { id } = await params;
    return NextResponse.json(await findDatasetExports(getDb(), id));
  } catch (error) {
    return errorResponse(error);
  }
}
