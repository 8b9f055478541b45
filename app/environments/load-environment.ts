import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { getEnvironmentHeadOrThrow } from "@/lib/environments/server/get-environment-head";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";

/** Page helper: the environment with its head version, or the not-found page. */
export async function loadEnvironmentHead(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    return await getEnvironmentHeadOrThrow(db, project.id, decodeURIComponent(id));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
