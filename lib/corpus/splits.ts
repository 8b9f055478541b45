/** Buckets of the corpus map's "scenarios by tool count" chart (tool count of the scenario's environment version). */
export const TOOL_COUNT_BUCKETS = [
  { label: "0", min: 0, max: 0 },
  { label: "1–3", min: 1, max: 3 },
  { label: "4–6", min: 4, max: 6 },
  { label: "7–10", min: 7, max: 10 },
  { label: "11–20", min: 11, max: 20 },
  { label: "21+", min: 21, max: Number.POSITIVE_INFINITY },
] as const;

export type CountRow = { label: string; count: number };

/** Folds per-tool-count counts (one row per distinct count, from SQL) into the chart's buckets, all shown. */
export function bucketToolCounts(rows: readonly { toolCount: number; count: number }[]): CountRow[] {
  return TOOL_COUNT_BUCKETS.map((b) => ({
    label: b.label,
    count: rows.filter((r) => r.toolCount >= b.min && r.toolCount <= b.max).reduce((s, r) => s + r.count, 0),
  }));
}

/** The largest `limit` rows, the rest folded into one "other" row so a 300-domain corpus stays readable. */
export function topWithOther(rows: readonly CountRow[], limit: number): CountRow[] {
  const sorted = [...rows].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  if (sorted.length <= limit) return sorted;
  const rest = sorted.slice(limit - 1).reduce((s, r) => s + r.count, 0);
  return [...sorted.slice(0, limit - 1), { label: `other (${sorted.length - limit + 1})`, count: rest }];
}

/** Buckets of "scenarios by difficulty": the pooled success rate (reward 1) of the rollouts graded
 * on a scenario's pins, with the two zero-signal ends apart (every rollout failed, or every one
 * passed: such a scenario gives a GRPO group no gradient). */
export const DIFFICULTY_BUCKETS = [
  "no rollouts",
  "never solved",
  "hard (under 1/3)",
  "medium (1/3–2/3)",
  "easy (over 2/3)",
  "always solved",
] as const;

/** The bucket of a scenario with `n` counted rollouts of which `successes` earned reward 1. */
export function difficultyBucket(n: number, successes: number): (typeof DIFFICULTY_BUCKETS)[number] {
  if (n <= 0) return "no rollouts";
  if (successes <= 0) return "never solved";
  if (successes >= n) return "always solved";
  const rate = successes / n;
  return rate < 1 / 3 ? "hard (under 1/3)" : rate <= 2 / 3 ? "medium (1/3–2/3)" : "easy (over 2/3)";
}

/** Per-(n, successes) counts from SQL folded into the chart's buckets, all shown, in order. */
export function bucketDifficulty(
  rows: readonly { n: number; successes: number; count: number }[],
): CountRow[] {
  const totals = new Map<string, number>(DIFFICULTY_BUCKETS.map((label) => [label, 0]));
  for (const r of rows) {
    const label = difficultyBucket(r.n, r.successes);
    totals.set(label, (totals.get(label) ?? 0) + r.count);
  }
  return DIFFICULTY_BUCKETS.map((label) => ({ label, count: totals.get(label) ?? 0 }));
}
