import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { undoLastDecision } from "@/lib/review/server/undo-decision";
import { errorResponse, readJsonBody } from "../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/undo `{}`: undoes the caller's last accept/reject (logged as an UNDO decision).
 * The body says nothing, but like every JSON write it must be application/json, which a cross-site
 * form or no-cors fetch cannot send.
 */
export async function POST(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    await readJsonBody(request);
    const db = getDb();
    const project = await getDefaultProject(db);
    return NextResponse.json(await undoLastDecision(db, project.id, user), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
