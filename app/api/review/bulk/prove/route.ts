import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { BulkProveInputSchema } from "@/lib/review/bulk.schema";
import { bulkProve } from "@/lib/review/server/bulk-review";
import { apiRoute } from "../../../api-route";
import { readJsonBody, respondWith } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/bulk/prove `{selection}`: one PROOF run for the selected scenarios (`runId`); other kinds are skipped.
 * A selection is `{mode: "items", items}` (each naming the versions seen) or `{mode: "filter", filter,
 * asOf, except}` (resolved on the server with the queue's filter). See docs/review.md.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: BulkProveInputSchema, input: readJsonBody },
  async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.reviewBulkProve, await bulkProve(db, project.id, input, user, sendJob), {
      status: 201,
    });
  },
);
