import "server-only";
/**
 * Environment rows for pipeline chains: one per kept topic or typed idea, with a slug that is
 * deterministic per run and subject, so re-committing a step never creates a duplicate.
 */
import type { Prisma } from "@/lib/db";
import { domainLabel, environmentName } from "../naming";
import { CHAIN_START, type Topic } from "../pipeline.schema";

type Tx = Prisma.TransactionClient;
type Run = { id: string; projectId: string };
export type ChainStart = { subjectKey: string; topic: Topic };

export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48) || "environment";

const chainSlug = (run: Run, c: ChainStart) =>
  `${slugify(c.topic.summary)}-${run.id.slice(-6)}-${c.subjectKey.replace(/[^a-z0-9]/gi, "")}`.toLowerCase();

/**
 * The environments and first steps of many chains in three statements, whatever their number (one
 * upsert and one insert per chain made a 20-idea run wait ~40 round trips before its first job).
 * Returns the environment id per subject key; chains that already exist are kept as they are.
 */
export async function createChainStarts(
  tx: Tx,
  run: Run,
  chains: ChainStart[],
): Promise<Map<string, string>> {
  if (chains.length === 0) return new Map();
  const slugs = chains.map((c) => chainSlug(run, c));
  await tx.environment.createMany({
    data: chains.map((c, i) => ({
      projectId: run.projectId,
      slug: slugs[i]!,
      name: environmentName(c.topic.summary),
      domain: domainLabel(c.topic.domain),
      description: c.topic.introduction,
      status: "GENERATING" as const,
      origin: "PIPELINE" as const,
      runId: run.id,
    })),
    skipDuplicates: true,
  });
  const rows = await tx.environment.findMany({
    where: { projectId: run.projectId, slug: { in: slugs } },
    select: { id: true, slug: true },
  });
  const idBySlug = new Map(rows.map((r) => [r.slug, r.id]));
  const ids = new Map(chains.map((c, i) => [c.subjectKey, idBySlug.get(slugs[i]!)!]));
  await tx.pipelineStep.createMany({
    data: chains.map((c) => ({
      runId: run.id,
      subjectKey: c.subjectKey,
      stage: CHAIN_START,
      environmentId: ids.get(c.subjectKey)!,
      input: { topic: c.topic, environmentId: ids.get(c.subjectKey)! },
    })),
    skipDuplicates: true,
  });
  return ids;
}
