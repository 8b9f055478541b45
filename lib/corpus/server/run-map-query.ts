import "server-only";
/**
 * Runs one corpus-map query with planner settings that suit it. Row estimates of unnest over
 * arrays are guesses (100 per row), so at 10,000 environments PostgreSQL thinks a self-join yields
 * millions of rows and spends most of the query JIT-compiling it (0.8 s of 2 s measured); the sorts
 * of 240,000 band keys also spill to disk at the default 4 MB work_mem. SET LOCAL keeps both
 * settings to this one transaction.
 */
import type { Db, Prisma } from "@/lib/db";

export async function runMapQuery<T>(db: Db, query: Prisma.PrismaPromise<T>): Promise<T> {
  const [, , result] = await db.$transaction([
    db.$executeRaw`SET LOCAL jit = off`,
    db.$executeRaw`SET LOCAL work_mem = '64MB'`,
    query,
  ]);
  return result;
}
