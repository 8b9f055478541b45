/**
 * Per-scenario difficulty from rollout counts (pure): success rate, τ²-bench's unbiased pass@k and
 * pass^k over n ≥ k samples, mean and variance of reward, and OpenEnv RFC 013's probability that a
 * GRPO group of G rollouts carries a learning signal (not all solved, not all failed).
 *
 * The inputs are aggregates (n, successes, Σreward, Σreward²) that SQL computes over the counted
 * rollouts (lib/difficulty/server/scenario-difficulty.ts): nothing here sees a rollout.
 */
import { z } from "zod";

/** What SQL sums over the rollouts of one scenario (one model, or pooled). */
export type RolloutCounts = {
  /** Rollouts counted (graded under the item's environment and validator versions). */
  n: number;
  /** Rollouts with reward 1. */
  successes: number;
  rewardSum: number;
  rewardSquareSum: number;
};

export const DifficultyOptionsSchema = z.object({
  /** k of pass@k and pass^k. */
  k: z.coerce.number().int().min(1, "k must be at least 1").max(1024).default(4),
  /** G of P(signal): the rollouts of one GRPO group. A group of one has no variance to learn from. */
  groupSize: z.coerce.number().int().min(2, "the group size G must be at least 2").max(1024).default(8),
});
export type DifficultyOptions = z.infer<typeof DifficultyOptionsSchema>;

export const DifficultyFiguresSchema = z.object({
  n: z.number().int(),
  successes: z.number().int(),
  /** successes / n; null without rollouts. */
  success_rate: z.number().nullable(),
  k: z.number().int(),
  /** Unbiased pass@k = 1 − C(n−c, k) / C(n, k); null while n < k. */
  pass_at_k: z.number().nullable(),
  /** Unbiased pass^k = C(c, k) / C(n, k); null while n < k. */
  pass_hat_k: z.number().nullable(),
  mean_reward: z.number().nullable(),
  /** Population variance of reward (Σr²/n − mean²); null without rollouts. */
  reward_variance: z.number().nullable(),
  group_size: z.number().int(),
  /** 1 − p^G − (1 − p)^G with p = success_rate; null without rollouts. */
  p_signal: z.number().nullable(),
});
export type DifficultyFigures = z.infer<typeof DifficultyFiguresSchema>;

/** Pooled over models, with each model's figures nested (what exports carry as `difficulty`). */
export const ScenarioDifficultySchema = DifficultyFiguresSchema.extend({
  per_model: z.record(z.string(), DifficultyFiguresSchema),
});
export type ScenarioDifficulty = z.infer<typeof ScenarioDifficultySchema>;

/**
 * C(a, k) / C(n, k) for 0 ≤ a ≤ n, k ≤ n, as the product ∏ (a − i) / (n − i): no factorials, so
 * no overflow at n in the thousands, and exactly 0 when a < k.
 */
export function binomialRatio(a: number, n: number, k: number): number {
  if (k > n) throw new RangeError(`k (${k}) must not exceed n (${n})`);
  let ratio = 1;
  for (let i = 0; i < k; i++) {
    if (a - i <= 0) return 0;
    ratio *= (a - i) / (n - i);
  }
  return ratio;
}

/** Unbiased pass@k from n samples with c successes (τ²-bench, after Chen et al. 2021). */
export function passAtK(n: number, c: number, k: number): number | null {
  if (n < k || n === 0) return null;
  return 1 - binomialRatio(n - c, n, k);
}

/** Unbiased pass^k: the chance that k samples drawn without replacement all succeed. */
export function passHatK(n: number, c: number, k: number): number | null {
  if (n < k || n === 0) return null;
  return binomialRatio(c, n, k);
}

/** RFC 013: P(a group of G rollouts is neither all solved nor all failed) at success rate p. */
export function signalProbability(p: number, groupSize: number): number {
  return 1 - p ** groupSize - (1 - p) ** groupSize;
}

/** Rounded to 6 decimals so stored and exported figures do not carry float noise. */
const round = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

export function difficultyFigures(counts: RolloutCounts, opts: DifficultyOptions): DifficultyFigures {
  const { n, successes: c } = counts;
  const rate = n > 0 ? c / n : null;
  const mean = n > 0 ? counts.rewardSum / n : null;
  const variance = mean === null ? null : Math.max(0, counts.rewardSquareSum / n - mean * mean);
  return {
    n,
    successes: c,
    success_rate: round(rate),
    k: opts.k,
    pass_at_k: round(passAtK(n, c, opts.k)),
    pass_hat_k: round(passHatK(n, c, opts.k)),
    mean_reward: round(mean),
    reward_variance: round(variance),
    group_size: opts.groupSize,
    p_signal: round(rate === null ? null : signalProbability(rate, opts.groupSize)),
  };
}

const NO_ROLLOUTS: RolloutCounts = { n: 0, successes: 0, rewardSum: 0, rewardSquareSum: 0 };

/** Pooled figures over every model's counts, with each model's own figures (models sorted by name). */
export function scenarioDifficulty(
  perModel: Record<string, RolloutCounts>,
  opts: DifficultyOptions,
): ScenarioDifficulty {
  const models = Object.keys(perModel).sort();
  const pooled = models.reduce<RolloutCounts>((sum, m) => {
    const c = perModel[m] ?? NO_ROLLOUTS;
    return {
      n: sum.n + c.n,
      successes: sum.successes + c.successes,
      rewardSum: sum.rewardSum + c.rewardSum,
      rewardSquareSum: sum.rewardSquareSum + c.rewardSquareSum,
    };
  }, NO_ROLLOUTS);
  return {
    ...difficultyFigures(pooled, opts),
    per_model: Object.fromEntries(
      models.map((m) => [m, difficultyFigures(perModel[m] ?? NO_ROLLOUTS, opts)]),
    ),
  };
}

/** Every counted rollout solved it, or none did: a GRPO group of it carries no gradient. */
export const isZeroSignal = (d: Pick<DifficultyFigures, "n" | "successes">) =>
  d.n > 0 && (d.successes === 0 || d.successes === d.n);

/** How many scenarios have each (n, successes): what the share below sums over. */
export type SignalHistogram = { n: number; successes: number; count: number }[];

/**
 * The expected share of GRPO groups with no signal over a set of scenarios: the mean of
 * 1 − P(signal) over those with rollouts (scenarios without rollouts have no estimate); null when
 * none has any.
 */
export function expectedZeroSignalShare(
  items: readonly { n: number; successes: number }[],
  groupSize: number,
): number | null {
  return zeroSignalShareOf(
    items.map((i) => ({ n: i.n, successes: i.successes, count: 1 })),
    groupSize,
  );
}

/**
 * The same share from a histogram (entries with equal n and successes may repeat). Merged and
 * summed in one canonical order (by n, then successes), so the preview's SQL histogram and a list of
 * items give the same float, to the last bit.
 */
export function zeroSignalShareOf(histogram: SignalHistogram, groupSize: number): number | null {
  const merged = new Map<string, { n: number; successes: number; count: number }>();
  for (const h of histogram) {
    if (h.n <= 0 || h.count <= 0) continue;
    const key = `${h.n}/${h.successes}`;
    const seen = merged.get(key);
    if (seen) seen.count += h.count;
    else merged.set(key, { ...h });
  }
  const measured = [...merged.values()].sort((a, b) => a.n - b.n || a.successes - b.successes);
  const scenarios = measured.reduce((sum, h) => sum + h.count, 0);
  if (scenarios === 0) return null;
  const sum = measured.reduce(
    (s, h) => s + h.count * (1 - signalProbability(h.successes / h.n, groupSize)),
    0,
  );
  return round(sum / scenarios);
}
