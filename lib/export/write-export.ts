/** The public entry of the pure exporters: one writer per format (formats/registry.ts), same input and sink. */
import { checkExportEnvironments } from "./check-environments";
import type { ExportFormatName, ExportInput, ExportSummary } from "./export.schema";
import { FORMATS } from "./formats/registry";
import type { Sink } from "./sink";

/** Refuses (ExportInputError) an environment whose names cannot be written as code, before any file is written. */
export async function writeExport(
  format: ExportFormatName,
  input: ExportInput,
  sink: Sink,
): Promise<ExportSummary> {
  checkExportEnvironments(input.environments);
  const write = await FORMATS[format].write();
  return write(input, sink);
}
