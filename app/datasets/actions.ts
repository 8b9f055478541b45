"use server";
/**
 * Dataset mutations, each through runAction (authorise → parse → one domain function → revalidate).
 * Imports go through POST /api/imports instead: server action bodies are capped at 1 MB and
 * EnvScaler's released metadata files are larger.
 */
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/server/run-action";
import { DatasetVersionFormSchema, StartExportFormSchema } from "@/lib/datasets/dataset-form.schema";
import { createDatasetVersion, previewDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { getDb } from "@/lib/db";
import { startExport } from "@/lib/export/server/start-export";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";

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

/** What a new version would hold (included, excluded with reasons, warnings), without making it. */
export async function previewDatasetVersionAction(raw: unknown) {
  return runAction(raw, DatasetVersionFormSchema, "REVIEWER", async (input) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return previewDatasetVersion(db, { ...input, projectId: project.id });
  });
}

export async function startExportAction(raw: unknown) {
  return runAction(raw, StartExportFormSchema, "REVIEWER", async (input, user) => {
    const row = await startExport(getDb(), { ...input, createdById: user.id });
    return { exportId: row.id };
  });
}
