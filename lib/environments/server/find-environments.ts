import "server-only";
import type { Db, Prisma } from "@/lib/db";
import type { EnvironmentListItem, EnvironmentListPage, ListEnvironmentsQuery } from "../environment.schema";
import { containsText } from "@/lib/core/contains-text";

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
          OR: [{ name: containsText(query.q) }, { slug: containsText(query.q) }],
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
      },
    }),
    db.environment.count({ where }),
  ]);
  // Counted for this page's rows only: a relation `_count` groups the whole Scenario table.
  const counts = await db.scenario.groupBy({
    by: ["environmentId"],
    where: { environmentId: { in: rows.map((r) => r.id) } },
    _count: { _all: true },
  });
  const scenarioCount = new Map(counts.map((c) => [c.environmentId, c._count._all]));
  const items: EnvironmentListItem[] = rows.map(({ updatedAt, archivedAt, ...row }) => ({
    ...row,
    archivedAt: archivedAt?.toISOString() ?? null,
    scenarioCount: scenarioCount.get(row.id) ?? 0,
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
