/**
 * The LLM response cache in Postgres (LlmCacheEntry). Shared by every worker, so a resumed run on
 * another machine still pays for nothing twice. A concurrent duplicate insert is harmless.
 */
import type { Db, Prisma } from "../../db";
import type { LlmCache } from "../client";

export function createDbCache(db: Db): LlmCache {
  return {
    async get(key) {
      const row = await db.llmCacheEntry.findUnique({ where: { cacheKey: key } });
      return row?.response ?? undefined;
    },
    async put(key, model, response) {
      await db.llmCacheEntry.createMany({ data: [{ cacheKey: key, model, response: response as Prisma.InputJsonValue }], skipDuplicates: true });
    },
  };
}
