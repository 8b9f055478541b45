import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { claimItem, releaseClaim } from "@/lib/review/server/claims";
import { errorResponse, invalidInput, readJsonBody } from "../../respond";

export const dynamic = "force-dynamic";

/**
 * POST {kind, id}: claim a queue item (→ {claimed, expiresAt} or {claimed:false, heldBy});
 * DELETE {kind, id}: release it. Route handlers rather than server actions: the queue claims on
 * every j/k, and these calls must not wait behind (or re-render with) the router's action queue.
 */
export async function POST(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    const input = ClaimInputSchema.safeParse(await readJsonBody(request));
    if (!input.success) throw invalidInput(input.error);
    return NextResponse.json(await claimItem(getDb(), input.data, user));
  } catch (error) {
    return errorResponse(error);
  }
}

export async function DELETE(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    const input = ClaimInputSchema.safeParse(await readJsonBody(request));
    if (!input.success) throw invalidInput(input.error);
    return NextResponse.json(await releaseClaim(getDb(), input.data, user));
  } catch (error) {
    return errorResponse(error);
  }
}
