import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { BulkRejectInputSchema } from "@/lib/review/bulk.schema";
import { bulkReject } from "@/lib/review/server/bulk-review";
import { apiRoute } from "../../../api-route";
import { readJsonBody, respondWith } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/bulk/reject `{selection, reason}`: rejects the selected items with one reason, logged on each.
 * A selection is `{mode: "items", items}` (each naming the versions seen) or `{mode: "filter", filter,
 * asOf, except}` (resolved on the server with the queue's filter). See docs/review.md.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: BulkRejectInputSchema, input: readJsonBody },
  async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.reviewBulkReject, await bulkReject(db, project.id, input, user, sendJob), {
      status: 201,
    });
  },
);
