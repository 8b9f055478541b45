/**
 * How difficulty shapes a dataset plan (pure): leaves out scenarios with no learning signal (every
 * counted rollout solved it, or none did — pooled over models) when asked, leaves out items outside
 * their split's success-rate band, sorts the included items, and reports the expected share of
 * zero-signal GRPO groups at the chosen G before and after. Figures come from
 * lib/difficulty (summed in SQL over rollouts on exactly each item's pins).
 */
import { type ScenarioDifficulty, expectedZeroSignalShare, isZeroSignal } from "../difficulty/estimators";
import type { DatasetDifficulty, DifficultyBand } from "./dataset.schema";
import { compareKeys } from "./key-order";
import type { SplitName } from "./split";

export type DifficultySummary = {
  k: number;
  groupSize: number;
  /** Included items (before difficulty exclusions) with at least one counted rollout. */
  measured: number;
  /** Expected share of zero-signal groups over the measured items, before and after the exclusions. */
  zeroSignalShareBefore: number | null;
  zeroSignalShareAfter: number | null;
  excludedZeroSignal: number;
  excludedByBand: number;
};

type Judged = { key: string; split: SplitName; difficulty: ScenarioDifficulty | null };

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

/** Why an item is left out by the difficulty filters, or null when it stays. */
export function difficultyExclusion(
  item: { split: SplitName; difficulty: Pick<ScenarioDifficulty, "n" | "successes" | "success_rate"> | null },
  opts: DatasetDifficulty,
): { reason: string; kind: "zeroSignal" | "band" } | null {
  const d = item.difficulty;
  if (opts.excludeZeroSignal && d && isZeroSignal(d))
    return {
      kind: "zeroSignal",
      reason:
        d.successes === d.n
          ? `no learning signal: all ${d.n} counted rollouts solved it`
          : `no learning signal: none of ${d.n} counted rollouts solved it`,
    };
  const band: DifficultyBand | undefined = item.split === "TRAIN" ? opts.trainBand : opts.testBand;
  if (!band) return null;
  const side = item.split.toLowerCase();
  if (!d || d.success_rate === null)
    return { kind: "band", reason: `no counted rollouts: cannot place it in the ${side} difficulty band` };
  if (d.success_rate < band.min || d.success_rate > band.max)
    return {
      kind: "band",
      reason: `success rate ${pct(d.success_rate)} outside the ${side} band ${pct(band.min)}–${pct(band.max)}`,
    };
  return null;
}

/** Hardest first for rates, most signal first for P(signal); unmeasured last; then by key. */
export function compareByDifficulty(sort: DatasetDifficulty["sort"]) {
  return (a: Judged, b: Judged): number => {
    if (sort !== "key") {
      const x = a.difficulty?.[sort] ?? null;
      const y = b.difficulty?.[sort] ?? null;
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        return sort === "p_signal" ? y - x : x - y;
      }
    }
    return compareKeys(a.key, b.key);
  };
}

export function summarizeDifficulty(
  before: readonly Judged[],
  after: readonly Judged[],
  excluded: { zeroSignal: number; band: number },
  opts: DatasetDifficulty,
): DifficultySummary {
  const counts = (items: readonly Judged[]) =>
    items.map((i) => ({ n: i.difficulty?.n ?? 0, successes: i.difficulty?.successes ?? 0 }));
  return {
    k: opts.k,
    groupSize: opts.groupSize,
    measured: before.filter((i) => (i.difficulty?.n ?? 0) > 0).length,
    zeroSignalShareBefore: expectedZeroSignalShare(counts(before), opts.groupSize),
    zeroSignalShareAfter: expectedZeroSignalShare(counts(after), opts.groupSize),
    excludedZeroSignal: excluded.zeroSignal,
    excludedByBand: excluded.band,
  };
}
