/**
 * The export format ids as a browser-safe list: pages and the API schemas the browser parses with
 * import this, never the registry, whose descriptors reach the writers (node:fs, parquet) through
 * their lazy imports — a bundler follows those into the client bundle. The type checker holds this
 * list to the Prisma enum both ways, and registry.ts keys its descriptors by the same enum.
 */
import { z } from "zod";
import type { ExportFormat } from "../../db/generated/enums";

export const EXPORT_FORMAT_IDS = [
  "ENVSCALER_JSON",
  "OPENAI_JSONL",
  "LLAMAFACTORY_SHAREGPT",
  "HF_DATASET",
  "VERL_PARQUET",
  "OPENENV_PACKAGE",
] as const satisfies readonly ExportFormat[];

type Unlisted = Exclude<ExportFormat, (typeof EXPORT_FORMAT_IDS)[number]>;
/** A format added to the Prisma enum and not above fails here. */
export const _EVERY_FORMAT_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

export const ExportFormatSchema = z.enum(EXPORT_FORMAT_IDS);

/** What the format picker shows: id and label, passed from the server's registry. */
export type FormatChoice = { id: ExportFormat; label: string };
