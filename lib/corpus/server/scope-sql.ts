import "server-only";
/**
 * SQL for "what the map looks at". The corpus is the current version of every environment that is
 * not rejected (merging rejects duplicates, so they leave the map); a dataset version is its pins.
 * A scenario in scope carries its environment (id, version, domain, tool count) and whether its gold
 * path is proven: VERIFIED for the corpus, entered without override for a dataset version (items
 * enter only with a VERIFIED proof of exactly their pins unless a curator overrode that).
 */
import { Prisma } from "@/lib/db";
import type { CorpusScope } from "../corpus.schema";

/** Rows (eid, vid): one per environment version in scope. */
export function versionScopeSql(scope: CorpusScope): Prisma.Sql {
  if (scope.kind === "corpus")
    return Prisma.sql`
      SELECT e."id" AS eid, e."currentVersionId" AS vid FROM "Environment" e
      WHERE e."projectId" = ${scope.projectId} AND e."status" <> 'REJECTED' AND e."currentVersionId" IS NOT NULL`;
  return Prisma.sql`
    SELECT DISTINCT v."environmentId" AS eid, v."id" AS vid
    FROM "DatasetItem" i JOIN "EnvironmentVersion" v ON v."id" = i."environmentVersionId"
    WHERE i."datasetVersionId" = ${scope.datasetVersionId}`;
}

/** Rows (sid, eid, vid, domain, tool_count, proven, task, gold, external_id, slug): one per scenario in scope. */
export function scenarioScopeSql(scope: CorpusScope): Prisma.Sql {
  if (scope.kind === "corpus")
    return Prisma.sql`
      SELECT s."id" AS sid, e."id" AS eid, e."currentVersionId" AS vid, e."domain" AS domain,
        e."toolCount" AS tool_count, (s."proofStatus" = 'VERIFIED') AS proven, s."task" AS task,
        s."goldCalls" AS gold, s."externalId" AS external_id, e."slug" AS slug
      FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId"
      WHERE e."projectId" = ${scope.projectId} AND e."status" <> 'REJECTED' AND s."status" <> 'REJECTED'`;
  return Prisma.sql`
    SELECT s."id" AS sid, e."id" AS eid, i."environmentVersionId" AS vid, e."domain" AS domain,
      COALESCE(cardinality(sig."toolSignatures"), e."toolCount") AS tool_count, NOT i."overridden" AS proven,
      s."task" AS task, s."goldCalls" AS gold, s."externalId" AS external_id, e."slug" AS slug
    FROM "DatasetItem" i JOIN "Scenario" s ON s."id" = i."scenarioId"
    JOIN "Environment" e ON e."id" = s."environmentId"
    LEFT JOIN "EnvironmentSignature" sig ON sig."environmentVersionId" = i."environmentVersionId"
    WHERE i."datasetVersionId" = ${scope.datasetVersionId}`;
}
