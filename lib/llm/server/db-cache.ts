import "server-only";
/**
 * The LLM response cache in Postgres (LlmCacheEntry). Shared by every worker, so a resumed run on
 * another machine still pays for nothing twice. A concurrent duplicate insert is harmless. Only
 * replies a stage accepted are put here; one a stage rejects later is evicted (lib/llm/client.ts).
 * Raw SQL: both run around every LLM call, and a Prisma model query costs about twice the CPU.
 */
import type { Db } from "../../db";
import type { LlmCache } from "../client";

export function createDbCache(db: Db): LlmCache {
  return {
    async get(key) {
      const rows = await db.$queryRaw<
        { response: unknown }[]
      >`SELECT response FROM "LlmCacheEntry" WHERE "cacheKey" = ${key}`;
      return rows[0]?.response ?? undefined;
    },
    async put(key, model, response) {
      await db.$executeRaw`INSERT INTO "LlmCacheEntry" ("cacheKey", model, response) VALUES (${key}, ${model}, ${JSON.stringify(response)}::jsonb) ON CONFLICT DO NOTHING`;
    },
    async evict(key) {
      await db.$executeRaw`DELETE FROM "LlmCacheEntry" WHERE "cacheKey" = ${key}`;
    },
  };
}
