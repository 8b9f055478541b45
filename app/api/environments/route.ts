import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { ListEnvironmentsQuerySchema } from "@/lib/environments/environment.schema";
import { findEnvironments } from "@/lib/environments/server/find-environments";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { apiRoute } from "../api-route";
import { readQuery, respondWith } from "../respond";

export const dynamic = "force-dynamic";

/** GET /api/environments?q=&status=&domain=&archived=&page=&pageSize= → { items, total, page, pageSize } */
export const GET = apiRoute(
  { role: "VIEWER", schema: ListEnvironmentsQuerySchema, input: readQuery },
  async (query) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.environmentList, await findEnvironments(db, project.id, query));
  },
);
