import "server-only";
/**
 * A page of a version's rows without a search, found from per-environment-version counts. The
 * export order (environment slug, then newer pinned version first, then task id) lives in two
 * other tables, so ordering the items themselves sorts every item of the version for each page —
 * over a second at 100,000 items. The counts come from an index, in that order; only the few
 * environment versions the page overlaps are then read, each in task-id order.
 */
import type { Db, Prisma } from "@/lib/db";

type Group = { environmentVersionId: string; n: number };

/** Where `[skip, skip + take)` falls: per overlapped group, its local offset and how many to read. */
export function slicesOf(groups: readonly Group[], skip: number, take: number) {
  const slices: { environmentVersionId: string; skip: number; take: number }[] = [];
  let start = 0;
  for (const g of groups) {
    const end = start + g.n;
    const from = Math.max(skip, start);
    const to = Math.min(skip + take, end);
    if (from < to)
      slices.push({ environmentVersionId: g.environmentVersionId, skip: from - start, take: to - from });
    if (end >= skip + take) break;
    start = end;
  }
  return slices;
}

/** Reads `take` items after `skip` of one environment version's items (with `where`), in task-id order. */
export type ReadSlice<R> = (where: Prisma.DatasetItemWhereInput, skip: number, take: number) => Promise<R[]>;

export async function pageOfVersionRows<R>(
  db: Db,
  datasetVersionId: string,
  query: { split?: "TRAIN" | "TEST"; page: number; pageSize: number },
  read: ReadSlice<R>,
) {
  const split = query.split ?? null;
  // Counted first (an index-only scan), then the ~one row per environment version sorted.
  const groups = await db.$queryRaw<Group[]>`
    SELECT g."environmentVersionId", g.n
    FROM (SELECT "environmentVersionId", count(*)::int AS n FROM "DatasetItem"
          WHERE "datasetVersionId" = ${datasetVersionId} AND (${split}::text IS NULL OR split::text = ${split}::text)
          GROUP BY 1) g
    JOIN "EnvironmentVersion" v ON v.id = g."environmentVersionId"
    JOIN "Environment" e ON e.id = v."environmentId"
    ORDER BY e.slug, v.version DESC`;
  const slices = slicesOf(groups, (query.page - 1) * query.pageSize, query.pageSize);
  const parts = await Promise.all(
    slices.map((s) =>
      read(
        {
          datasetVersionId,
          environmentVersionId: s.environmentVersionId,
          ...(query.split ? { split: query.split } : {}),
        },
        s.skip,
        s.take,
      ),
    ),
  );
  return { records: parts.flat(), total: groups.reduce((sum, g) => sum + g.n, 0) };
}
