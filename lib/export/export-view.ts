/** The JSON shape of an export row for the dataset page and its polling route (no BigInt, ISO dates). */
import type { ExportFormatName } from "./export.schema";

export type ExportStatusName = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED";

export type ExportView = {
  id: string;
  version: number;
  format: ExportFormatName;
  status: ExportStatusName;
  processed: number;
  total: number;
  byteSize: number | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
};

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
