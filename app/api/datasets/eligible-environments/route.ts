import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { EligibleEnvironmentsQuerySchema } from "@/lib/datasets/eligible-environments.schema";
import { findEligibleEnvironments } from "@/lib/datasets/server/find-eligible-environments";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { apiRoute } from "../../api-route";
import { readQuery, respondWith } from "../../respond";

export const dynamic = "force-dynamic";

/** GET /api/datasets/eligible-environments?q=&page= → { items, total, page, pageSize } */
export const GET = apiRoute(
  { role: "VIEWER", schema: EligibleEnvironmentsQuerySchema, input: readQuery },
  async (query) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.eligibleEnvironments, await findEligibleEnvironments(db, project.id, query));
  },
);
