import "server-only";
/**
 * The episode journal in Postgres (table ServedEpisode): one row per episode, its calls appended
 * by the replica that holds it. Every write is one statement whose WHERE clause carries the rule
 * (episode-journal.ts), so two replicas racing for one episode cannot both win.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "@/lib/db";
import type { EpisodeJournal, JournalCall, JournalEntry, JournalEpisode } from "../episode-journal";

type Row = Omit<JournalEntry, "ended" | "calls"> & { calls: JournalCall[]; endedAt: Date | null };

export function createPgEpisodeJournal(
  db: Db,
  holder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
): EpisodeJournal {
  return {
    holder,
    async begin(e: JournalEpisode) {
      // A reset may reuse its own episode id (same key): the record starts over. Another
      // owner's id is left alone.
      const n = await db.$executeRaw`
        INSERT INTO "ServedEpisode" ("id", "keyHash", "catalog", "scenarioId", "seed", "diffs", "holder")
        VALUES (${e.id}, ${e.keyHash}, ${e.catalog}, ${e.scenarioId}, ${e.seed}, ${e.diffs}, ${holder})
        ON CONFLICT ("id") DO UPDATE SET
          "catalog" = EXCLUDED."catalog", "scenarioId" = EXCLUDED."scenarioId", "seed" = EXCLUDED."seed",
          "diffs" = EXCLUDED."diffs", "holder" = EXCLUDED."holder", "calls" = '[]', "endedAt" = NULL,
          "updatedAt" = now()
        WHERE "ServedEpisode"."keyHash" = EXCLUDED."keyHash"`;
      return n === 1;
    },
    async record(id: string, before: number, call: JournalCall) {
      const n = await db.$executeRaw`
        UPDATE "ServedEpisode"
        SET "calls" = "calls" || jsonb_build_array(${JSON.stringify(call)}::jsonb), "updatedAt" = now()
        WHERE "id" = ${id} AND "holder" = ${holder} AND "endedAt" IS NULL
          AND jsonb_array_length("calls") = ${before}`;
      return n === 1;
    },
    async end(id: string) {
      await db.$executeRaw`
        UPDATE "ServedEpisode" SET "endedAt" = now(), "updatedAt" = now()
        WHERE "id" = ${id} AND "holder" = ${holder} AND "endedAt" IS NULL`;
    },
    async adopt(id: string, catalog: string, keyHash: string) {
      const rows = await db.$queryRaw<Row[]>`
        UPDATE "ServedEpisode" SET "holder" = ${holder}, "updatedAt" = now()
        WHERE "id" = ${id} AND "catalog" = ${catalog} AND "keyHash" = ${keyHash} AND "endedAt" IS NULL
        RETURNING "id", "keyHash", "catalog", "scenarioId", "seed", "diffs", "calls", "endedAt"`;
      const row = rows[0];
      return row ? { ...row, calls: row.calls, ended: row.endedAt !== null } : null;
    },
    async lost(ids: string[]) {
      if (ids.length === 0) return [];
      const rows = await db.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "ServedEpisode" WHERE "id" = ANY(${ids}::text[]) AND "holder" <> ${holder}`;
      return rows.map((r) => r.id);
    },
    async inspect(id: string) {
      const rows = await db.$queryRaw<{ catalog: string; keyHash: string; endedAt: Date | null }[]>`
        SELECT "catalog", "keyHash", "endedAt" FROM "ServedEpisode" WHERE "id" = ${id}`;
      const row = rows[0];
      return row ? { catalog: row.catalog, keyHash: row.keyHash, ended: row.endedAt !== null } : null;
    },
    async prune(before: Date, limit: number) {
      // One bounded batch per statement (the caller loops), oldest first on the updatedAt index;
      // SKIP LOCKED: replicas pruning at once split the work instead of waiting on each other.
      return db.$executeRaw`
        DELETE FROM "ServedEpisode" WHERE "id" IN (
          SELECT "id" FROM "ServedEpisode" WHERE "updatedAt" < ${before}
          ORDER BY "updatedAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
    },
  };
}
