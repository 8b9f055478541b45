import "server-only";
/**
 * Environments with an accepted version (also those edited since: their accepted version can be
 * pinned) and their accepted-scenario counts: what a dataset can be made from. One searched page,
 * ordered by env_id; the counts are taken for the page's environments only.
 */
import type { Db, Prisma } from "@/lib/db";
import {
  ELIGIBLE_PAGE_SIZE,
  type EligibleEnvironmentsPage,
  type EligibleEnvironmentsQuery,
} from "../eligible-environments.schema";
import { containsText } from "@/lib/core/contains-text";

export async function findEligibleEnvironments(
  db: Db,
  projectId: string,
  query: EligibleEnvironmentsQuery = { q: "", page: 1 },
): Promise<EligibleEnvironmentsPage> {
  const term = query.q ? containsText(query.q) : null;
  const where: Prisma.EnvironmentWhereInput = {
    projectId,
    AND: [
      { OR: [{ status: "ACCEPTED" }, { acceptedVersionId: { not: null }, status: { not: "REJECTED" } }] },
      ...(term ? [{ OR: [{ name: term }, { slug: term }] }] : []),
    ],
  };
  const [envs, total] = await Promise.all([
    db.environment.findMany({
      where,
      orderBy: { slug: "asc" },
      skip: (query.page - 1) * ELIGIBLE_PAGE_SIZE,
      take: ELIGIBLE_PAGE_SIZE,
      select: { id: true, slug: true, name: true },
    }),
    db.environment.count({ where }),
  ]);
  const counts = envs.length
    ? await db.scenario.groupBy({
        by: ["environmentId"],
        where: { environmentId: { in: envs.map((e) => e.id) }, status: "ACCEPTED" },
        _count: { _all: true },
      })
    : [];
  const countOf = new Map(counts.map((c) => [c.environmentId, c._count._all]));
  return {
    items: envs.map((e) => ({ ...e, acceptedScenarios: countOf.get(e.id) ?? 0 })),
    total,
    page: query.page,
    pageSize: ELIGIBLE_PAGE_SIZE,
  };
}
