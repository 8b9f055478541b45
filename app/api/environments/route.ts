import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { parseListQuery } from "@/lib/environments/environment.schema";
import { findEnvironments } from "@/lib/environments/server/find-environments";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { currentUser } from "@/lib/auth/server/require-role";
import { errorResponse, invalidInput } from "../respond";

export const dynamic = "force-dynamic";

/** GET /api/environments?q=&status=&domain=&page=&pageSize= → { items, total, page, pageSize } */
export async function GET(request: NextRequest) {
  try {
    await currentUser();
    const query = parseListQuery(Object.fromEntries(request.nextUrl.searchParams));
    if (!query.success) throw invalidInput(query.error);
    const db = getDb();
    const project = await getDefaultProject(db);
    return NextResponse.json(await findEnvironments(db, project.id, query.data));
  } catch (error) {
    return errorResponse(error);
  }
}
