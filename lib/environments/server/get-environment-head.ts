import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";

/** An environment with its head version (by id or slug, within the project). */
export async function getEnvironmentHeadOrThrow(db: Db, projectId: string, idOrSlug: string) {
  const env = await db.environment.findFirst({
    where: { projectId, OR: [{ id: idOrSlug }, { slug: idOrSlug }] },
    include: { currentVersion: true },
  });
  if (!env?.currentVersion)
    throw new AppError("NOT_FOUND", `Environment "${idOrSlug}" was not found or has no code yet.`);
  return { ...env, currentVersion: env.currentVersion };
}

/** Version list with authors, for the history and the diff picker. */
export async function findEnvironmentVersions(db: Db, environmentId: string) {
  const versions = await db.environmentVersion.findMany({
    where: { environmentId },
    orderBy: { version: "desc" },
    select: {
      id: true,
      version: true,
      producedBy: true,
      authorId: true,
      message: true,
      createdAt: true,
      parentVersionId: true,
    },
  });
  const authors = await db.user.findMany({
    where: { id: { in: versions.map((v) => v.authorId).filter((a): a is string => !!a) } },
    select: { id: true, email: true },
  });
  const byId = new Map(authors.map((a) => [a.id, a.email]));
  return versions.map((v) => ({
    ...v,
    author: (v.authorId && byId.get(v.authorId)) || v.producedBy,
    createdAt: v.createdAt.toISOString(),
  }));
}

/** The source of each asked-for version (the diff's two sides); a version that does not exist is absent. */
export async function findVersionSources(
  db: Db,
  environmentId: string,
  versions: number[],
): Promise<Map<number, string>> {
  const rows = await db.environmentVersion.findMany({
    where: { environmentId, version: { in: versions } },
    select: { version: true, source: true },
  });
  return new Map(rows.map((r) => [r.version, r.source]));
}
