/**
 * An export format as one descriptor: its stored id (the Prisma ExportFormat enum), the CLI alias,
 * the label people read, what the export must load for it, and its writer. The writer is imported
 * on first use: the format picker in the browser reads the same descriptors and never runs one.
 * Pure: the enum is imported as a type only.
 */
import type { ExportFormat } from "../../db/generated/enums";
import type { ExportInput, ExportSummary } from "../export.schema";
import type { Sink } from "../sink";

export type FormatWriter = (input: ExportInput, sink: Sink) => Promise<ExportSummary>;

export type FormatSpec<Id extends ExportFormat = ExportFormat> = {
  id: Id;
  /** CLI spelling (`envstudio dataset export --format <alias>`). */
  alias: string;
  /** What the format picker and error messages call it. */
  label: string;
  needs: {
    /** Scenarios carry their SFT-passing trajectories (streamed from the database). */
    trajectories: boolean;
    /** Its rows are those trajectories: without any, the export would be empty. */
    sftRows: boolean;
  };
  write: () => Promise<FormatWriter>;
};

export const defineFormat = <const Id extends ExportFormat>(spec: FormatSpec<Id>): FormatSpec<Id> => spec;
