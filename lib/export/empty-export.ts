/**
 * An export that would write no rows is a failure with a reason, never "Succeeded" with an empty
 * file: trajectory formats need rollouts that passed the SFT filter on the pinned code and checks. Pure.
 */
import { FORMAT_LABELS } from "./export-view";
import type { ExportFormatName } from "./export.schema";
import { SFT_ROW_FORMATS } from "./write-export";

export function emptyExportReason(format: ExportFormatName, datasetVersion: number): string {
  if (SFT_ROW_FORMATS.has(format)) {
    return `${FORMAT_LABELS[format]} is built from trajectories; dataset version ${datasetVersion} has none that passed the SFT filter on its pinned environment and validator versions — run rollouts first.`;
  }
  return `${FORMAT_LABELS[format]} would be empty: dataset version ${datasetVersion} has no scenarios.`;
}
