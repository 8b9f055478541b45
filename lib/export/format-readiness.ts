/**
 * Which export formats can work for a dataset version before anyone clicks, and what fixes the
 * ones that cannot yet: formats whose rows are SFT trajectories need rollouts that passed the SFT
 * filter on the version's pins; EnvScaler writes its scenarios without them, and its `sft_traj_*`
 * files only when there are trajectories. The export job refuses the same cases (empty-export.ts). Pure.
 */
import type { ExportFormat } from "../db/generated/enums";
import type { FormatSpec } from "./formats/format-spec";

/** What a dataset version holds, as far as the formats care. */
export type VersionContents = { version: number; scenarios: number; sftTrajectories: number };

/** The action that makes a format work (or complete): the page links it to where it is done. */
export type ReadinessFix = "RUN_ROLLOUTS";

export type FormatReadiness = {
  /** Exporting now writes rows (otherwise the export is refused with `note` as the reason). */
  ready: boolean;
  /** Why it cannot work yet, or what a ready export will leave out; null when nothing is missing. */
  note: string | null;
  fix: ReadinessFix | null;
};

export function formatReadiness(
  format: Pick<FormatSpec, "label" | "needs">,
  contents: VersionContents,
): FormatReadiness {
  const v = `version ${contents.version}`;
  if (contents.scenarios === 0)
    return { ready: false, note: `Dataset ${v} has no scenarios: nothing to export.`, fix: null };
  if (format.needs.sftRows && contents.sftTrajectories === 0)
    return {
      ready: false,
      note: `Needs agent trajectories: ${format.label} is built from rollouts that passed the SFT filter, and dataset ${v} has none on its pinned environment and check versions.`,
      fix: "RUN_ROLLOUTS",
    };
  if (format.needs.trajectories && contents.sftTrajectories === 0)
    return {
      ready: true,
      note: `Dataset ${v} has no SFT trajectories yet: the export holds its environments and scenarios, and no sft_traj files.`,
      fix: "RUN_ROLLOUTS",
    };
  return { ready: true, note: null, fix: null };
}

/** What the export picker gets for one dataset version. */
export type VersionReadiness = {
  formats: Record<ExportFormat, FormatReadiness>;
  /** Where rollouts for this version are started (its environments, by name). */
  environments: { id: string; name: string }[];
};
