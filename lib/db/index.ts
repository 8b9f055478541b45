/**
 * The one Prisma client. Server-side only: import it from `lib/<domain>/server/*`, never from the
 * pure core. In dev, the client is cached on globalThis so hot reloads do not open new pools.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { readEnv } from "../env";

export type Db = PrismaClient;
export * from "./generated/client";

export function createDb(url = readEnv("DATABASE_URL"), max = readEnv("PG_POOL_MAX")): PrismaClient {
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set: start the studio with `npm start` (it starts an embedded database).",
    );
  }
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

const cache = globalThis as unknown as { envstudioDb?: PrismaClient };

/** Lazily created so that importing this module never needs a database (e.g. at build time). */
export function getDb(): PrismaClient {
  cache.envstudioDb ??= createDb();
  return cache.envstudioDb;
}
