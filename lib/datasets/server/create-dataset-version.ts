/**
 * Makes a new immutable dataset version: snapshots the accepted, verified scenarios of accepted
 * environments with their pinned environment and validator versions, splits them by environment,
 * and stores statistics and the changelog against the previous version. One transaction.
 */
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import { type CreateDatasetVersionInput, CreateDatasetVersionInputSchema } from "../dataset.schema";
import { splitByEnvironment } from "../split";
import { computeChangelog, computeStats } from "../stats";
import { loadStatsItems } from "./load-stats-items";

type Candidate = {
  id: string; externalId: string; task: string; environmentVersionId: string;
  environment: { id: string; slug: string; domain: string; toolCount: number };
  validators: { currentVersionId: string | null }[];
};

async function findCandidates(tx: Prisma.TransactionClient, input: ReturnType<typeof CreateDatasetVersionInputSchema.parse>): Promise<Candidate[]> {
  const envFilter = input.environments?.length ? { OR: [{ id: { in: input.environments } }, { slug: { in: input.environments } }] } : {};
  return tx.scenario.findMany({
    where: {
      environment: { projectId: input.projectId, status: "ACCEPTED", ...envFilter },
      status: "ACCEPTED",
      ...(input.allowUnverified ? {} : { proofStatus: "VERIFIED" as const }),
      id: { notIn: input.excludeScenarioIds },
    },
    select: {
      id: true, externalId: true, task: true, environmentVersionId: true,
      environment: { select: { id: true, slug: true, domain: true, toolCount: true } },
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
    },
    orderBy: [{ environment: { slug: "asc" } }, { externalId: "asc" }],
  });
}

export async function createDatasetVersion(db: Db, raw: CreateDatasetVersionInput) {
  const input = CreateDatasetVersionInputSchema.parse(raw);
  return db.$transaction(async (tx) => {
    if (input.isNew && (await tx.dataset.findUnique({ where: { projectId_name: { projectId: input.projectId, name: input.name } }, select: { id: true } }))) {
      throw new AppError("CONFLICT", `A dataset named "${input.name}" already exists: open it to make a new version.`);
    }
    const dataset = await tx.dataset.upsert({
      where: { projectId_name: { projectId: input.projectId, name: input.name } },
      create: { projectId: input.projectId, name: input.name, description: input.description ?? "" },
      update: input.description === undefined ? {} : { description: input.description },
    });
    const candidates = await findCandidates(tx, input);
    if (candidates.length === 0) throw new AppError("INVALID_INPUT", "No accepted, verified scenarios match: accept environments and scenarios (and verify their validators) first.");
    const counts = new Map<string, number>();
    for (const c of candidates) counts.set(c.environment.slug, (counts.get(c.environment.slug) ?? 0) + 1);
    const sides = splitByEnvironment([...counts].map(([environmentKey, scenarioCount]) => ({ environmentKey, scenarioCount })), input.seed, input.testRatio);
    const previous = await tx.datasetVersion.findFirst({ where: { datasetId: dataset.id }, orderBy: { version: "desc" } });
    const version = await tx.datasetVersion.create({
      data: { datasetId: dataset.id, version: (previous?.version ?? 0) + 1, seed: input.seed, testRatio: input.testRatio, createdById: input.createdById ?? null },
    });
    await tx.datasetItem.createMany({
      data: candidates.map((c) => ({
        datasetVersionId: version.id, scenarioId: c.id, environmentVersionId: c.environmentVersionId,
        validatorVersionIds: c.validators.map((v) => v.currentVersionId).filter((v): v is string => v !== null),
        split: sides.get(c.environment.slug) ?? "TRAIN",
      })),
    });
    const items = await loadStatsItems(tx, version.id);
    const before = previous ? { version: previous.version, seed: previous.seed, items: await loadStatsItems(tx, previous.id) } : null;
    return tx.datasetVersion.update({
      where: { id: version.id },
      data: { stats: computeStats(items), changelog: computeChangelog(before, { seed: input.seed, items }) },
      include: { dataset: true },
    });
  }, { timeout: 120_000 });
}
