import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { releaseClaim } from "@/lib/review/server/claims";
import { errorResponse, invalidInput, readJsonBody } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST {kind, id}: release a claim. The queue sends it with navigator.sendBeacon when the page is
 * hidden for good (tab closed, navigation away), which can only POST; DELETE on /claims is the same.
 * Like every JSON route it takes only application/json: the beacon sends a Blob of that type, and
 * the browser adds the page's Origin, so proxy.ts lets the studio's own pages through.
 */
export async function POST(request: NextRequest) {
  try {
    const user = await requireRole("REVIEWER");
    const input = ClaimInputSchema.safeParse(await readJsonBody(request));
    if (!input.success) throw invalidInput(input.error);
    return NextResponse.json(await releaseClaim(getDb(), input.data, user));
  } catch (error) {
    return errorResponse(error);
  }
}
