/**
 * Environment rows for pipeline chains: one per kept topic or typed idea, with a slug that is
 * deterministic per run and subject, so re-committing a step never creates a duplicate.
 */
import type { Prisma } from "@/lib/db";
import { ENV_CHAIN, type Topic } from "../pipeline.schema";

type Tx = Prisma.TransactionClient;

export const slugify = (text: string) =>
  text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48) || "environment";

export async function upsertChainEnvironment(tx: Tx, run: { id: string; projectId: string }, subjectKey: string, topic: Topic): Promise<string> {
  const slug = `${slugify(topic.summary)}-${run.id.slice(-6)}-${subjectKey.replace(/[^a-z0-9]/gi, "")}`.toLowerCase();
  const env = await tx.environment.upsert({
    where: { projectId_slug: { projectId: run.projectId, slug } },
    update: {},
    create: { projectId: run.projectId, slug, name: topic.summary, description: topic.introduction, status: "GENERATING", origin: "PIPELINE", runId: run.id },
  });
  return env.id;
}

/** The first step of an environment's chain (the rest follow one by one). */
export async function createChainStart(tx: Tx, run: { id: string; projectId: string }, subjectKey: string, topic: Topic): Promise<string> {
  const environmentId = await upsertChainEnvironment(tx, run, subjectKey, topic);
  await tx.pipelineStep.createMany({
    data: [{ runId: run.id, subjectKey, stage: ENV_CHAIN[0]!, environmentId, input: { topic, environmentId } }],
    skipDuplicates: true,
  });
  return environmentId;
}
