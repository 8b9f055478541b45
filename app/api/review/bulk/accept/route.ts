import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { BulkAcceptInputSchema } from "@/lib/review/bulk.schema";
import { bulkAccept } from "@/lib/review/server/bulk-review";
import { apiRoute } from "../../../api-route";
import { readJsonBody, respondWith } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/bulk/accept `{selection}`: accepts the selected items, each as a single decision would; items whose acceptance needs a written override reason come back as skipped with it.
 * A selection is `{mode: "items", items}` (each naming the versions seen) or `{mode: "filter", filter,
 * asOf, except}` (resolved on the server with the queue's filter). See docs/review.md.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: BulkAcceptInputSchema, input: readJsonBody },
  async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.reviewBulkAccept, await bulkAccept(db, project.id, input, user, sendJob), {
      status: 201,
    });
  },
);
