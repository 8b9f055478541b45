"use server";
/**
 * Dataset mutations: parse → authorise → one domain function → revalidate → return.
 * Imports go through POST /api/imports instead: server action bodies are capped at 1 MB and
 * EnvScaler's released metadata files are larger.
 */
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { requireRole } from "@/lib/auth/server/require-role";
import { actionErrorMessage } from "@/lib/auth/server/run-action";
import { type ActionResult, DatasetVersionFormSchema, StartExportFormSchema } from "@/lib/datasets/dataset-form.schema";
import { createDatasetVersion, previewDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import type { DatasetPlan } from "@/lib/datasets/plan";
import { getDb } from "@/lib/db";
import { startExport } from "@/lib/export/server/start-export";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";

const issues = (e: z.ZodError) => e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");

/** Creates a dataset (isNew) or a new immutable version of one. */
export async function createDatasetVersionAction(input: unknown): Promise<ActionResult<{ datasetId: string; version: number }>> {
  const form = DatasetVersionFormSchema.safeParse(input);
  if (!form.success) return { ok: false, error: issues(form.error) };
  try {
    const user = await requireRole("REVIEWER");
    const db = getDb();
    const project = await getDefaultProject(db);
    const v = await createDatasetVersion(db, { ...form.data, projectId: project.id, createdById: user.id });
    revalidatePath("/datasets");
    revalidatePath(`/datasets/${v.datasetId}`);
    return { ok: true, value: { datasetId: v.datasetId, version: v.version } };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}

/** What a new version would hold (included, excluded with reasons, warnings), without making it. */
export async function previewDatasetVersionAction(input: unknown): Promise<ActionResult<DatasetPlan>> {
  const form = DatasetVersionFormSchema.safeParse(input);
  if (!form.success) return { ok: false, error: issues(form.error) };
  try {
    await requireRole("REVIEWER");
    const db = getDb();
    const project = await getDefaultProject(db);
    return { ok: true, value: await previewDatasetVersion(db, { ...form.data, projectId: project.id }) };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}

export async function startExportAction(input: unknown): Promise<ActionResult<{ exportId: string }>> {
  const form = StartExportFormSchema.safeParse(input);
  if (!form.success) return { ok: false, error: issues(form.error) };
  try {
    const user = await requireRole("REVIEWER");
    const row = await startExport(getDb(), { ...form.data, createdById: user.id });
    return { ok: true, value: { exportId: row.id } };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}
