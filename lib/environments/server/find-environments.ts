import "server-only";
import type { Db, Prisma } from "@/lib/db";
import type { EnvironmentListItem, EnvironmentListPage, ListEnvironmentsQuery } from "../environment.schema";

/**
 * One page of environments with the total. Filters run in Postgres (indexes on project+status and
 * project+updatedAt); the name search is a case-insensitive substring match.
 */
export async function findEnvironments(
  db: Db,
  projectId: string,
  query: ListEnvironmentsQuery,
): Promise<EnvironmentListPage> {
  const where: Prisma.EnvironmentWhereInput = {
    projectId,
    ...(query.archived ? {} : { archivedAt: null }),
    ...(query.status ? { status: query.status } : {}),
    ...(query.domain ? { domain: query.domain } : {}),
    ...(query.q
      ? {
          OR: [
            { name: { contains: query.q, mode: "insensitive" } },
            { slug: { contains: query.q, mode: "insensitive" } },
          ],
        }
      : {}),
  };
  const [rows, total] = await Promise.all([
    db.environment.findMany({
      where,
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        slug: true,
        name: true,
        domain: true,
        status: true,
        origin: true,
        toolCount: true,
        archivedAt: true,
        updatedAt: true,
        _count: { select: { scenarios: true } },
      },
    }),
    db.environment.count({ where }),
  ]);
  const items: EnvironmentListItem[] = rows.map(({ _count, updatedAt, archivedAt, ...row }) => ({
    ...row,
    archivedAt: archivedAt?.toISOString() ?? null,
    scenarioCount: _count.scenarios,
    updatedAt: updatedAt.toISOString(),
  }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}

export async function findDomains(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.environment.groupBy({
    by: ["domain"],
    where: { projectId },
    orderBy: { domain: "asc" },
  });
  return rows.map((r) => r.domain);
}
