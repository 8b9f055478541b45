import "server-only";
/**
 * Makes a new immutable dataset version from the plan (lib/datasets/plan.ts): every item pinned to
 * explicit environment and validator versions, accepted and proven unless a written override let
 * it in (then marked, and the override logged). Splits by environment and stores statistics and the
 * changelog against the previous version, and each item's difficulty on its pins as it stands now
 * (a snapshot the exports read). One transaction.
 */
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import { type CreateDatasetVersionInput, CreateDatasetVersionInputSchema } from "../dataset.schema";
import { exportedStrength } from "@/lib/scenarios/near-miss-strength";
import type { DatasetPlan } from "../plan";
import { computeChangelog, computeStats } from "../stats";
import { loadDatasetPlan, overrideReasonOf } from "./load-dataset-plan";
import { loadStatsItems } from "./load-stats-items";

/** What would be made, without making it (the preview). */
export async function previewDatasetVersion(db: Db, raw: CreateDatasetVersionInput): Promise<DatasetPlan> {
  return loadDatasetPlan(db, CreateDatasetVersionInputSchema.parse(raw));
}

function nothingToInclude(plan: DatasetPlan): AppError {
  const reasons = new Map<string, number>();
  for (const e of plan.excluded) reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + 1);
  const why = [...reasons].map(([r, n]) => `${n} ${r}`).join("; ");
  return new AppError(
    "INVALID_INPUT",
    `No accepted, verified scenarios match${why ? ` (${why})` : ""}: accept environments and scenarios and prove their validators first.`,
  );
}

export async function createDatasetVersion(db: Db, raw: CreateDatasetVersionInput) {
  const input = CreateDatasetVersionInputSchema.parse(raw);
  return db.$transaction(
    async (tx) => {
      if (
        input.isNew &&
        (await tx.dataset.findUnique({
          where: { projectId_name: { projectId: input.projectId, name: input.name } },
          select: { id: true },
        }))
      ) {
        throw new AppError(
          "CONFLICT",
          `A dataset named "${input.name}" already exists: open it to make a new version.`,
        );
      }
      const plan = await loadDatasetPlan(tx, input);
      if (plan.included.length === 0) throw nothingToInclude(plan);
      const dataset = await tx.dataset.upsert({
        where: { projectId_name: { projectId: input.projectId, name: input.name } },
        create: { projectId: input.projectId, name: input.name, description: input.description ?? "" },
        update: input.description === undefined ? {} : { description: input.description },
      });
      const previous = await tx.datasetVersion.findFirst({
        where: { datasetId: dataset.id },
        orderBy: { version: "desc" },
      });
      const overridden = plan.included.filter((i) => i.overridden);
      const version = await tx.datasetVersion.create({
        data: {
          datasetId: dataset.id,
          version: (previous?.version ?? 0) + 1,
          seed: input.seed,
          testRatio: input.testRatio,
          description: dataset.description,
          createdById: input.createdById ?? null,
          overrideReason: overridden.length ? overrideReasonOf(input) : null,
        },
      });
      await tx.datasetItem.createMany({
        data: plan.included.map((i) => ({
          datasetVersionId: version.id,
          scenarioId: i.scenarioId,
          environmentVersionId: i.environmentVersionId,
          validatorVersionIds: i.validatorVersionIds,
          split: i.split,
          overridden: i.overridden,
          // Frozen with the version: exports read this, never the rollouts stored since.
          ...(i.difficulty ? { difficulty: i.difficulty } : {}),
          // What exports write as near_miss_strength, frozen now: later proofs never change this version.
          nearMissStrength: { strength: exportedStrength(i.strength) } as Prisma.InputJsonValue,
        })),
      });
      if (overridden.length)
        await logOverride(tx, {
          projectId: input.projectId,
          actorId: input.createdById ?? null,
          versionId: version.id,
          reason: overrideReasonOf(input) ?? "",
          items: overridden,
        });
      const items = await loadStatsItems(tx, version.id);
      const before = previous
        ? { version: previous.version, seed: previous.seed, items: await loadStatsItems(tx, previous.id) }
        : null;
      const updated = await tx.datasetVersion.update({
        where: { id: version.id },
        data: {
          stats: computeStats(items),
          changelog: computeChangelog(before, { seed: input.seed, items }),
        },
        include: { dataset: true },
      });
      return { ...updated, difficulty: plan.difficulty };
    },
    { timeout: 120_000 },
  );
}

/** The override is a decision like any other: who, why, and exactly which items and pins. */
async function logOverride(
  tx: Prisma.TransactionClient,
  o: {
    projectId: string;
    actorId: string | null;
    versionId: string;
    reason: string;
    items: DatasetPlan["included"];
  },
) {
  await tx.reviewDecision.create({
    data: {
      projectId: o.projectId,
      actorId: o.actorId,
      targetType: "DATASET_VERSION",
      targetId: o.versionId,
      decision: "OVERRIDE",
      reason: o.reason,
      after: {
        items: o.items.map((i) => ({
          key: i.key,
          environmentVersion: i.environmentVersion,
          validatorVersions: i.validatorVersions,
          why: i.note,
        })),
      },
    },
  });
}
