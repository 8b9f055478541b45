import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { claimItem, releaseClaim } from "@/lib/review/server/claims";
import { apiRoute } from "../../api-route";
import { readJsonBody, respondWith } from "../../respond";

export const dynamic = "force-dynamic";

/**
 * POST {kind, id}: claim a queue item (→ {claimed, expiresAt} or {claimed:false, heldBy});
 * DELETE {kind, id}: release it. Route handlers rather than server actions: the queue claims on
 * every j/k, and these calls must not wait behind (or re-render with) the router's action queue.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: ClaimInputSchema, input: readJsonBody },
  async (input, user) => respondWith(API.reviewClaim, await claimItem(getDb(), input, user)),
);

export const DELETE = apiRoute(
  { role: "REVIEWER", schema: ClaimInputSchema, input: readJsonBody },
  async (input, user) => respondWith(API.reviewRelease, await releaseClaim(getDb(), input, user)),
);
