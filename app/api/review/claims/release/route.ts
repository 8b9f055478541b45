import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { releaseClaim } from "@/lib/review/server/claims";
import { errorResponse, invalidInput } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST {kind, id}: release a claim. The queue sends it with navigator.sendBeacon when the page is
 * hidden for good (tab closed, navigation away), which can only POST; DELETE on /claims is the same.
 */
export async function POST(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    const input = ClaimInputSchema.safeParse(await request.json().catch(() => null));
    if (!input.success) throw invalidInput(input.error);
    return NextResponse.json(await releaseClaim(getDb(), input.data, user));
  } catch (error) {
    return errorResponse(error);
  }
}
