import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { getQueuePreview } from "@/lib/review/server/get-queue-preview";
import { errorResponse, invalidInput } from "../../respond";

export const dynamic = "force-dynamic";

/** GET ?kind=&id=: the queue's preview pane for one item (proof, quality summary, code diff). */
export async function GET(request: NextRequest) {
  try {
    await requireRole("VIEWER");
    const input = ClaimInputSchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!input.success) throw invalidInput(input.error);
    const db = getDb();
    const project = await getDefaultProject(db);
    return NextResponse.json(await getQueuePreview(db, project.id, input.data));
  } catch (error) {
    return errorResponse(error);
  }
}
