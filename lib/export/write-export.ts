/** The public entry of the pure exporters: one writer per format, same input and sink. */
import { checkExportEnvironments } from "./check-environments";
import type { ExportFormatName, ExportInput, ExportSummary } from "./export.schema";
import { writeEnvScaler } from "./formats/envscaler";
import { writeHfDataset } from "./formats/hf-dataset";
import { writeLlamaFactory } from "./formats/llamafactory";
import { writeOpenAiJsonl } from "./formats/openai-jsonl";
import { writeOpenEnv } from "./formats/openenv";
import { writeVerl } from "./formats/verl";
import type { Sink } from "./sink";

export const WRITERS: Record<ExportFormatName, (input: ExportInput, sink: Sink) => Promise<ExportSummary>> = {
  ENVSCALER_JSON: writeEnvScaler,
  OPENAI_JSONL: writeOpenAiJsonl,
  LLAMAFACTORY_SHAREGPT: writeLlamaFactory,
  HF_DATASET: writeHfDataset,
  VERL_PARQUET: writeVerl,
  OPENENV_PACKAGE: writeOpenEnv,
};

/** Formats that read SFT-passing trajectories (EnvScaler writes them beside its scenarios). */
export const TRAJECTORY_FORMATS: ReadonlySet<ExportFormatName> = new Set([
  "OPENAI_JSONL",
  "LLAMAFACTORY_SHAREGPT",
  "ENVSCALER_JSON",
]);
/** Formats whose rows are those trajectories: without any they would be empty (EnvScaler's rows are scenarios). */
export const SFT_ROW_FORMATS: ReadonlySet<ExportFormatName> = new Set([
  "OPENAI_JSONL",
  "LLAMAFACTORY_SHAREGPT",
]);

/** Refuses (ExportInputError) an environment whose names cannot be written as code, before any file is written. */
export async function writeExport(
  format: ExportFormatName,
  input: ExportInput,
  sink: Sink,
): Promise<ExportSummary> {
  checkExportEnvironments(input.environments);
  return WRITERS[format](input, sink);
}
