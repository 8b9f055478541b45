/** The JSON shape of an export row for the dataset page and its polling route (no BigInt, ISO dates). */
import { z } from "zod";
import { type ExportFormatName, ExportFormatSchema } from "./export.schema";

export const ExportStatusSchema = z.enum(["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"]);
export type ExportStatusName = z.infer<typeof ExportStatusSchema>;

/** Answered by GET /api/datasets/:id/exports (a list, newest first). */
export const ExportViewSchema = z.object({
  id: z.string(),
  version: z.number(),
  format: ExportFormatSchema,
  status: ExportStatusSchema,
  processed: z.number(),
  total: z.number(),
  byteSize: z.number().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExportView = z.infer<typeof ExportViewSchema>;

export const isExportTerminal = (status: ExportStatusName) => status === "SUCCEEDED" || status === "FAILED";

/** Human labels for the format picker; the CLI spells them with FORMAT_ALIASES. */
export const FORMAT_LABELS: Record<ExportFormatName, string> = {
  ENVSCALER_JSON: "EnvScaler JSON",
  OPENAI_JSONL: "OpenAI chat fine-tuning JSONL",
  LLAMAFACTORY_SHAREGPT: "LlamaFactory ShareGPT",
  HF_DATASET: "Hugging Face dataset folder",
  VERL_PARQUET: "verl agentic RL parquet",
  OPENENV_PACKAGE: "OpenEnv / TRL package",
};
