import "server-only";
/**
 * Fills in the signatures the map needs and lacks (versions written before signatures existed, or
 * under another SIGNATURE_ALGORITHM), a batch at a time so a first map over a large corpus never
 * holds all code in memory. Once every version has one, this is one anti-join that finds nothing.
 */
import type { Db } from "@/lib/db";
import type { CorpusScope } from "../corpus.schema";
import { SIGNATURE_ALGORITHM } from "../signature";
import { versionScopeSql } from "./scope-sql";
import { writeEnvironmentSignatures } from "./write-environment-signature";

const BATCH = 200;

export async function ensureSignatures(db: Db, scope: CorpusScope): Promise<number> {
  let written = 0;
  for (;;) {
    const missing = await db.$queryRaw<{ id: string; source: string; tools: unknown }[]>`
      SELECT v."id", v."source", v."tools" FROM (${versionScopeSql(scope)}) sc
      JOIN "EnvironmentVersion" v ON v."id" = sc.vid
      LEFT JOIN "EnvironmentSignature" s ON s."environmentVersionId" = sc.vid
      WHERE s."environmentVersionId" IS NULL OR s."algorithm" <> ${SIGNATURE_ALGORITHM}
      LIMIT ${BATCH}`;
    if (!missing.length) return written;
    await writeEnvironmentSignatures(db, missing);
    written += missing.length;
  }
}
