/** What the dataset pages send to their actions: the domain input minus what the server supplies. */
import { z } from "zod";
import { ExportFormatSchema } from "../export/formats/format-ids";
import { CreateDatasetVersionInputSchema } from "./dataset.schema";
import { PreviewPageSchema } from "./preview-page";

/** The studio asks for a written override reason; `allowUnverified` (a fixed reason) is CLI-only. */
export const DatasetVersionFormSchema = CreateDatasetVersionInputSchema.omit({
  projectId: true,
  createdById: true,
  allowUnverified: true,
});

/** The preview also says which page of its lists to send. */
export const DatasetPreviewFormSchema = DatasetVersionFormSchema.extend({ page: PreviewPageSchema });

export const StartExportFormSchema = z.object({
  datasetVersionId: z.string().min(1),
  format: ExportFormatSchema,
});

/** The dataset page's rollout launcher: k per scenario per model (models comma-separated; empty = LLM_MODEL). */
export const LaunchDatasetRolloutsFormSchema = z.object({
  dataset: z.string().min(1),
  version: z.coerce.number().int().min(1).optional(),
  k: z.coerce.number().int().min(1, "k must be at least 1"),
  models: z
    .string()
    .default("")
    .transform((m) =>
      m
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    ),
});
