/** What the dataset pages send to their actions: the domain input minus what the server supplies. */
import { z } from "zod";
import { ExportFormatSchema } from "../export/formats/registry";
import { CreateDatasetVersionInputSchema } from "./dataset.schema";

/** The studio asks for a written override reason; `allowUnverified` (a fixed reason) is CLI-only. */
export const DatasetVersionFormSchema = CreateDatasetVersionInputSchema.omit({
  projectId: true,
  createdById: true,
  allowUnverified: true,
});

export const StartExportFormSchema = z.object({
  datasetVersionId: z.string().min(1),
  format: ExportFormatSchema,
});
