import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";

/** The environment page: current version (code, tools), scenarios and version history. */
export async function getEnvironmentOrThrow(db: Db, projectId: string, id: string) {
  const env = await db.environment.findFirst({
    where: { projectId, OR: [{ id }, { slug: id }] },
    include: {
      currentVersion: true,
      versions: {
        orderBy: { version: "desc" },
        select: { id: true, version: true, producedBy: true, message: true, createdAt: true },
      },
      scenarios: {
        orderBy: { createdAt: "asc" },
        select: { id: true, externalId: true, task: true, status: true, proofStatus: true, checklist: true },
      },
    },
  });
  if (!env) throw new AppError("NOT_FOUND", `Environment "${id}" was not found.`);
  return env;
}
