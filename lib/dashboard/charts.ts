/** Pure chart shaping for the dashboard: fixed buckets so charts compare across days. */
export type Bucket = { label: string; value: number };

/** How many rows hold each value: what SQL's GROUP BY gives, so a chart never loads every row. */
export type Tally = { value: number; count: number }[];

const ones = (values: number[]): Tally => values.map((value) => ({ value, count: 1 }));

/** Integer counts into ranges, e.g. [0, 1, 5, 10, 20] → "0", "1–4", "5–9", "10–19", "20+". */
export function bucketCountTally(tally: Tally, edges: number[]): Bucket[] {
  const buckets = edges.map((lo, i) => {
    const hi = edges[i + 1];
    const label = hi === undefined ? `${lo}+` : hi - lo === 1 ? String(lo) : `${lo}–${hi - 1}`;
    return { label, value: 0, lo, hi };
  });
  for (const { value, count } of tally) {
    const b = buckets.findLast((x) => value >= x.lo);
    if (b) b.value += count;
  }
  return buckets.map(({ label, value }) => ({ label, value }));
}

export const bucketCounts = (values: number[], edges: number[]) => bucketCountTally(ones(values), edges);

/** Fractions in [0, 1] into ten 10 % bins; 1.0 falls into the last bin. */
export function bucketFractionTally(tally: Tally, bins = 10): Bucket[] {
  const out = Array.from({ length: bins }, (_, i) => ({ label: `${(i / bins).toFixed(1)}`, value: 0 }));
  for (const { value, count } of tally) {
    if (!Number.isFinite(value)) continue;
    const i = Math.min(bins - 1, Math.max(0, Math.floor(value * bins)));
    out[i]!.value += count;
  }
  return out;
}

export const bucketFractions = (values: number[], bins = 10) => bucketFractionTally(ones(values), bins);

/** A continuous day series (missing days are zero) ending today, `days` long, UTC dates. */
export function fillDays(rows: { day: string; value: number }[], days: number, today: Date): Bucket[] {
  const byDay = new Map(rows.map((r) => [r.day, r.value]));
  const out: Bucket[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i))
      .toISOString()
      .slice(0, 10);
    out.push({ label: d, value: byDay.get(d) ?? 0 });
  }
  return out;
}

export type DashboardCharts = {
  toolsPerEnvironment: Bucket[];
  scenariosPerEnvironment: Bucket[];
  qualityPassRates: Bucket[];
  quality: { passed: number; failed: number };
  proofOutcomes: { status: string; count: number }[];
  rewards: Bucket[];
  spendByDay: Bucket[];
  totalSpendUsd: number;
};
