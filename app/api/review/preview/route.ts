import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { ClaimInputSchema } from "@/lib/review/review.schema";
import { getQueuePreview } from "@/lib/review/server/get-queue-preview";
import { apiRoute } from "../../api-route";
import { readQuery, respondWith } from "../../respond";

export const dynamic = "force-dynamic";

/** GET ?kind=&id=: the queue's preview pane for one item (proof, quality summary, code diff). */
export const GET = apiRoute({ role: "VIEWER", schema: ClaimInputSchema, input: readQuery }, async (input) => {
  const db = getDb();
  const project = await getDefaultProject(db);
  return respondWith(API.reviewPreview, await getQueuePreview(db, project.id, input));
});
