import "server-only";
/**
 * k rollouts per scenario per model over a dataset version's items: one ROLLOUT run (the same run
 * kind, job and executor as the environment page's rollouts), resumable like every run. Bad input
 * is refused before anything is written: k outside 1…ROLLOUT_MAX_K, a model the endpoint's
 * `GET /v1/models` does not list, a budget on an unpriced model. Used by `envstudio rollouts` and
 * the dataset page.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { getDatasetVersionOrThrow } from "@/lib/datasets/server/find-datasets";
import { readEnv } from "@/lib/env";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { unknownModels } from "@/lib/llm";
import type { RolloutMode } from "../rollout.schema";
import { enqueueRolloutRun } from "./rollout-run";

export type LaunchDatasetRollouts = {
  projectId: string;
  dataset: string;
  version?: number;
  k: number;
  models: string[];
  mode?: RolloutMode;
  maxCostUsd?: number | null;
  createdById?: string | null;
};

/** Checks k and the models; throws INVALID_INPUT naming what is wrong. */
export async function checkRolloutRequest(
  input: Pick<LaunchDatasetRollouts, "k" | "models">,
  listModels: () => Promise<string[]>,
): Promise<void> {
  const max = readEnv("ROLLOUT_MAX_K");
  if (!Number.isInteger(input.k) || input.k < 1 || input.k > max)
    throw new AppError(
      "INVALID_INPUT",
      `k must be a whole number from 1 to ${max} (ROLLOUT_MAX_K); got ${input.k}`,
    );
  if (input.models.length === 0) throw new AppError("INVALID_INPUT", "name at least one model");
  const listed = await listModels();
  const unknown = unknownModels(input.models, listed);
  if (unknown.length)
    throw new AppError(
      "INVALID_INPUT",
      `unknown model${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: the endpoint lists ${listed.join(", ") || "no models"}`,
    );
}

export async function launchDatasetRollouts(
  db: Db,
  send: JobSender,
  input: LaunchDatasetRollouts,
  listModels: () => Promise<string[]>,
) {
  await checkRolloutRequest(input, listModels);
  const { dataset, version } = await getDatasetVersionOrThrow(
    db,
    input.projectId,
    input.dataset,
    input.version,
  );
  const items = await db.datasetItem.findMany({
    where: { datasetVersionId: version.id },
    orderBy: { scenarioId: "asc" },
    select: { scenarioId: true },
  });
  if (items.length === 0) throw new AppError("CONFLICT", `${dataset.name} v${version.version} has no items.`);
  const run = await enqueueRolloutRun(db, send, {
    projectId: input.projectId,
    scenarioIds: items.map((i) => i.scenarioId),
    config: { models: input.models, k: input.k, mode: input.mode ?? "non_conversational" },
    createdById: input.createdById ?? null,
    maxCostUsd: input.maxCostUsd ?? null,
  });
  return { run, dataset, version };
}
