import "server-only";
/**
 * For the export picker: which formats can work for each dataset version (format-readiness.ts), and
 * the environments whose rollouts would supply the trajectories the SFT formats need.
 */
import type { Db } from "@/lib/db";
import type { ExportFormat } from "../../db/generated/enums";
import { type FormatReadiness, formatReadiness, type VersionReadiness } from "../format-readiness";
import { FORMATS } from "../formats/registry";
import { countSftTrajectories } from "./sft-trajectory-rule";

async function versionReadiness(db: Db, v: { id: string; version: number }): Promise<VersionReadiness> {
  const [scenarios, sftTrajectories, envs] = await Promise.all([
    db.datasetItem.count({ where: { datasetVersionId: v.id } }),
    countSftTrajectories(db, v.id),
    db.environment.findMany({
      where: { versions: { some: { datasetItems: { some: { datasetVersionId: v.id } } } } },
      select: { id: true, name: true },
      orderBy: { name: "asc" },
    }),
  ]);
  const contents = { version: v.version, scenarios, sftTrajectories };
  const formats = Object.fromEntries(
    Object.values(FORMATS).map((f) => [f.id, formatReadiness(f, contents)]),
  ) as Record<ExportFormat, FormatReadiness>;
  return { formats, environments: envs };
}

/** Keyed by dataset version id. */
export async function findExportReadiness(
  db: Db,
  versions: { id: string; version: number }[],
): Promise<Record<string, VersionReadiness>> {
  const entries = await Promise.all(
    versions.map(async (v) => [v.id, await versionReadiness(db, v)] as const),
  );
  return Object.fromEntries(entries);
}
