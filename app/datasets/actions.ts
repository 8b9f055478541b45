"use server";
/**
 * Dataset mutations, each through runAction (authorise → parse → one domain function → revalidate).
 * Imports go through POST /api/imports instead: server action bodies are capped at 1 MB and
 * EnvScaler's released metadata files are larger.
 */
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/server/run-action";
import {
  DatasetPreviewFormSchema,
  DatasetVersionFormSchema,
  StartExportFormSchema,
} from "@/lib/datasets/dataset-form.schema";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { previewDatasetPage } from "@/lib/datasets/server/preview-dataset-page";
import { getDb } from "@/lib/db";
import { startExport } from "@/lib/export/server/start-export";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { AppError } from "@/lib/core/errors";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getLlmConfig, listModels } from "@/lib/llm";
import { LaunchDatasetRolloutsFormSchema } from "@/lib/datasets/dataset-form.schema";
import { launchDatasetRollouts } from "@/lib/rollout/server/launch-dataset-rollouts";

/** Creates a dataset (isNew) or a new immutable version of one. */
export async function createDatasetVersionAction(raw: unknown) {
  return runAction(raw, DatasetVersionFormSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    const v = await createDatasetVersion(db, { ...input, projectId: project.id, createdById: user.id });
    revalidatePath("/datasets");
    revalidatePath(`/datasets/${v.datasetId}`);
    return { datasetId: v.datasetId, version: v.version };
  });
}

/**
 * What a new version would hold, without making it: totals, the reasons things are left out, and
 * one page of included and left-out items (a corpus-sized list never goes to the browser).
 */
export async function previewDatasetVersionAction(raw: unknown) {
  return runAction(raw, DatasetPreviewFormSchema, "REVIEWER", async ({ page, ...input }) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return previewDatasetPage(db, { ...input, projectId: project.id }, page);
  });
}

export async function startExportAction(raw: unknown) {
  return runAction(raw, StartExportFormSchema, "REVIEWER", async (input, user) => {
    const row = await startExport(getDb(), { ...input, createdById: user.id });
    return { exportId: row.id };
  });
}

/** k rollouts per scenario per model over a dataset version (the same run as `envstudio rollouts`). */
export async function launchDatasetRolloutsAction(raw: unknown) {
  return runAction(raw, LaunchDatasetRolloutsFormSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    const llm = getLlmConfig();
    const baseUrl = llm.baseUrl;
    const endpointModels = () => {
      if (!baseUrl)
        throw new AppError("INVALID_INPUT", "OPENAI_BASE_URL is not set: no endpoint to roll out with");
      return listModels(baseUrl, llm.apiKey);
    };
    const models = input.models.length ? input.models : [llm.defaultModel];
    const { run } = await launchDatasetRollouts(
      db,
      sendJob,
      {
        projectId: project.id,
        dataset: input.dataset,
        version: input.version,
        k: input.k,
        models,
        createdById: user.id,
      },
      endpointModels,
    );
    return { runId: run.id };
  });
}
