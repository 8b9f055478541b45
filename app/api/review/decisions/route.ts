import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { DecideItemInputSchema } from "@/lib/review/review.schema";
import { decideReviewItem } from "@/lib/review/server/decide-item";
import { apiRoute } from "../../api-route";
import { readJsonBody, respondWith } from "../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/decisions: the queue's accept/reject, also for scripts. The body names what the
 * reviewer saw — `{kind: "environment", id, versionId}`, `{kind: "scenario", id, environmentVersionId,
 * validatorVersionIds}`, `{kind: "trajectory", id}` or `{kind: "repair", id}` — with `decision` and
 * `reason`; 409 when the item changed since (for a repair: since it was proposed).
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: DecideItemInputSchema, input: readJsonBody },
  async (input, user) =>
    respondWith(API.reviewDecision, await decideReviewItem(getDb(), input, user), { status: 201 }),
);
