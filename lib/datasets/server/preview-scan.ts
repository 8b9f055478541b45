import "server-only";
/** What both ways of reading the preview share: the corpus-wide read and a page's row. */
import { type Db, Prisma } from "@/lib/db";
import type { FactClass } from "../preview-from-groups";
import type { PlanInput } from "./load-dataset-plan";

/** The fact rows `f` of the considered environments, as loadEnvironments picks them. */
export const consideredFacts = (input: Pick<PlanInput, "projectId" | "environments">) =>
  input.environments?.length
    ? Prisma.sql`f."environmentId" IN (SELECT x.id FROM "Environment" x WHERE x."projectId" = ${input.projectId}
        AND (x.id = ANY(${input.environments}::text[]) OR x.slug = ANY(${input.environments}::text[])))`
    : Prisma.sql`f."environmentStatus" NOT IN ('REJECTED', 'FAILED')`;

/**
 * One corpus-wide read in a transaction of its own with JIT off, room to hash in memory, and
 * random reads priced as the cached reads they are: the planner's cost for these scans is above
 * JIT's threshold, and compiling them costs more (about 80 ms) than the scan saves; sorting
 * 100,000 rows in the default 4 MB spills to disk; at the default random_page_cost the planner
 * sorts a whole bucket rather than walk its index range in key order. SET LOCAL keeps all three
 * to this read, and separate transactions let the reads run side by side.
 */
export async function scan<T>(db: Db, query: Prisma.Sql): Promise<T> {
  const [, rows] = await db.$transaction([
    db.$queryRaw`SELECT set_config('jit', 'off', true), set_config('work_mem', '32MB', true), set_config('random_page_cost', '1.1', true)`,
    db.$queryRaw<T>(query),
  ]);
  return rows;
}

export type PageRow = {
  id: string;
  environmentId: string;
  externalId: string;
  status: string;
  vals: unknown;
  pin: string | null;
  cls: FactClass;
  proof: string | null;
  n: number;
  successes: number;
};
