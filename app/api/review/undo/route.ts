import { NextResponse } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { undoLastDecision } from "@/lib/review/server/undo-decision";
import { errorResponse } from "../../respond";

export const dynamic = "force-dynamic";

/** POST /api/review/undo: undoes the caller's last accept/reject (logged as an UNDO decision). */
export async function POST() {
  try {
    const user = await requireRole("REVIEWER");
    const db = getDb();
    const project = await getDefaultProject(db);
    return NextResponse.json(await undoLastDecision(db, project.id, user), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
