import { getDb } from "@/lib/db";
import { getEnvironmentHeadOrThrow } from "@/lib/environments/server/get-environment-head";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { orNotFound } from "@/app/or-not-found";

/** Page helper: the environment with its head version, or the not-found page. */
export async function loadEnvironmentHead(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  return orNotFound(getEnvironmentHeadOrThrow(db, project.id, decodeURIComponent(id)));
}
