import "server-only";
/**
 * Stores the similarity signature of environment versions. Called in the transaction that creates a
 * version (pipeline assembly, import, save, samples), and by the corpus map for versions without a
 * current signature (older rows, or an algorithm change), so the map reads signatures, never code.
 */
import type { Db, Prisma } from "@/lib/db";
import { computeEnvironmentSignature, SIGNATURE_ALGORITHM } from "../signature";

type Tx = Prisma.TransactionClient | Db;
export type VersionCode = { id: string; source: string; tools: unknown };

function rowOf(version: VersionCode) {
  const sig = computeEnvironmentSignature(version);
  return {
    environmentVersionId: version.id,
    algorithm: SIGNATURE_ALGORITHM,
    codeMinhash: sig.codeMinhash,
    toolMinhash: sig.toolMinhash,
    toolSignatures: sig.toolSignatures,
    bands: sig.bands.map((b) => BigInt(b)),
    tokenCount: sig.tokenCount,
  };
}

export async function writeEnvironmentSignature(tx: Tx, version: VersionCode) {
  const row = rowOf(version);
  await tx.environmentSignature.upsert({
    where: { environmentVersionId: version.id },
    create: row,
    update: { ...row, createdAt: new Date() },
  });
}

/** Many versions in one statement (backfill): JSON in, one INSERT … ON CONFLICT. */
export async function writeEnvironmentSignatures(db: Tx, versions: readonly VersionCode[]) {
  if (!versions.length) return;
  const rows = versions.map(rowOf).map((r) => ({ ...r, bands: r.bands.map(String) }));
  await db.$executeRaw`
    INSERT INTO "EnvironmentSignature"
      ("environmentVersionId", "algorithm", "codeMinhash", "toolMinhash", "toolSignatures", "bands", "tokenCount")
    SELECT r."environmentVersionId", r."algorithm",
      ARRAY(SELECT jsonb_array_elements_text(r."codeMinhash")::int),
      ARRAY(SELECT jsonb_array_elements_text(r."toolMinhash")::int),
      ARRAY(SELECT jsonb_array_elements_text(r."toolSignatures")),
      ARRAY(SELECT jsonb_array_elements_text(r."bands")::bigint),
      r."tokenCount"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      "environmentVersionId" text, "algorithm" int, "codeMinhash" jsonb, "toolMinhash" jsonb,
      "toolSignatures" jsonb, "bands" jsonb, "tokenCount" int)
    ON CONFLICT ("environmentVersionId") DO UPDATE SET
      "algorithm" = EXCLUDED."algorithm", "codeMinhash" = EXCLUDED."codeMinhash",
      "toolMinhash" = EXCLUDED."toolMinhash", "toolSignatures" = EXCLUDED."toolSignatures",
      "bands" = EXCLUDED."bands", "tokenCount" = EXCLUDED."tokenCount", "createdAt" = now()`;
}
