import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { BulkAddToDatasetInputSchema } from "@/lib/review/bulk.schema";
import { bulkAddToDataset } from "@/lib/review/server/bulk-review";
import { apiRoute } from "../../../api-route";
import { readJsonBody, respondWith } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/review/bulk/dataset `{selection, datasetId}`: the dataset's next version with the selected scenarios added (its rules apply: what they leave out is skipped with why).
 * A selection is `{mode: "items", items}` (each naming the versions seen) or `{mode: "filter", filter,
 * asOf, except}` (resolved on the server with the queue's filter). See docs/review.md.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: BulkAddToDatasetInputSchema, input: readJsonBody },
  async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.reviewBulkDataset, await bulkAddToDataset(db, project.id, input, user), {
      status: 201,
    });
  },
);
