import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { DecideItemInputSchema } from "@/lib/review/review.schema";
import { decideItem } from "@/lib/review/server/decide-item";
import { errorResponse, invalidInput, readJsonBody } from "../../respond";

export const dynamic = "force-dynamic";

/** POST /api/review/decisions {kind, id, decision, reason, versionId?}: the queue's accept/reject for scripts. */
export async function POST(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    const input = DecideItemInputSchema.safeParse(await readJsonBody(request));
    if (!input.success) throw invalidInput(input.error);
    return NextResponse.json(await decideItem(getDb(), input.data, user), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
