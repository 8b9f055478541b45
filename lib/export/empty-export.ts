/**
 * An export that would write no rows is a failure with a reason, never "Succeeded" with an empty
 * file: trajectory formats need rollouts that passed the SFT filter on the pinned code and checks. Pure.
 */
import type { ExportFormatName } from "./export.schema";
import { FORMATS } from "./formats/registry";

export function emptyExportReason(format: ExportFormatName, datasetVersion: number): string {
  const { label, needs } = FORMATS[format];
  if (needs.sftRows) {
    return `${label} is built from trajectories; dataset version ${datasetVersion} has none that passed the SFT filter on its pinned environment and validator versions — run rollouts first.`;
  }
  return `${label} would be empty: dataset version ${datasetVersion} has no scenarios.`;
}
