import "server-only";
/** A few lines on a dataset version's difficulty on its pins, as it stands (printed after rollouts). */
import type { Db } from "@/lib/db";
import { DifficultyOptionsSchema, expectedZeroSignalShare, isZeroSignal } from "../estimators";
import { difficultyOf, loadDatasetVersionCounts } from "./scenario-difficulty";

const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);

export async function summarizeDatasetDifficulty(db: Db, datasetVersionId: string): Promise<string[]> {
  const opts = DifficultyOptionsSchema.parse({});
  const items = await db.datasetItem.findMany({ where: { datasetVersionId }, select: { scenarioId: true } });
  const counts = await loadDatasetVersionCounts(db, datasetVersionId);
  const figures = [
    ...difficultyOf(
      counts,
      items.map((i) => i.scenarioId),
      opts,
    ).values(),
  ];
  const measured = figures.filter((d) => d.n > 0);
  const rollouts = measured.reduce((s, d) => s + d.n, 0);
  const successes = measured.reduce((s, d) => s + d.successes, 0);
  const models = new Map<string, { n: number; c: number }>();
  for (const d of measured)
    for (const [m, f] of Object.entries(d.per_model)) {
      const t = models.get(m) ?? { n: 0, c: 0 };
      models.set(m, { n: t.n + f.n, c: t.c + f.successes });
    }
  return [
    `difficulty (rollouts on the items' pins): ${measured.length}/${items.length} scenarios measured, ${rollouts} rollouts, success rate ${pct(rollouts ? successes / rollouts : null)}`,
    `  zero-signal (all solved or none): ${measured.filter(isZeroSignal).length}; expected zero-signal share at G=${opts.groupSize}: ${pct(expectedZeroSignalShare(measured, opts.groupSize))}`,
    ...[...models]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([m, t]) => `  ${m}: ${t.n} rollouts, success rate ${pct(t.n ? t.c / t.n : null)}`),
  ];
}
