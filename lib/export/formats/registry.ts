/**
 * Every export format, one line each, in the order the picker lists them. Keyed by the Prisma
 * ExportFormat enum: a value added there without a descriptor here (or a descriptor under the wrong
 * key) is a type error. The lists the rest of the studio reads are derived from this table.
 */
import { z } from "zod";
import type { ExportFormat } from "../../db/generated/enums";
import { envscalerFormat } from "./envscaler.format";
import type { FormatSpec } from "./format-spec";
import { hfDatasetFormat } from "./hf-dataset.format";
import { llamaFactoryFormat } from "./llamafactory.format";
import { openAiJsonlFormat } from "./openai-jsonl.format";
import { openEnvFormat } from "./openenv.format";
import { verlFormat } from "./verl.format";

export const FORMATS = {
  ENVSCALER_JSON: envscalerFormat,
  OPENAI_JSONL: openAiJsonlFormat,
  LLAMAFACTORY_SHAREGPT: llamaFactoryFormat,
  HF_DATASET: hfDatasetFormat,
  VERL_PARQUET: verlFormat,
  OPENENV_PACKAGE: openEnvFormat,
} satisfies { [Id in ExportFormat]: FormatSpec<Id> };

const SPECS: FormatSpec[] = Object.values(FORMATS);

export const EXPORT_FORMATS = SPECS.map((f) => f.id) as [ExportFormat, ...ExportFormat[]];
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);

/** CLI spelling (`--format envscaler`) → stored enum. */
export const FORMAT_ALIASES: Record<string, ExportFormat> = Object.fromEntries(
  SPECS.map((f) => [f.alias, f.id]),
);

export const FORMAT_LABELS = Object.fromEntries(SPECS.map((f) => [f.id, f.label])) as Record<
  ExportFormat,
  string
>;
