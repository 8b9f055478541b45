/**
 * The `difficulty` object every export format with a place for metadata carries per scenario:
 * pooled figures over models, with each model's figures in `per_model` (a list sorted by model,
 * one shape for JSON and for columnar formats, where a map keyed by model name would give every
 * row its own schema). It is the snapshot a dataset version froze when it was made
 * (DatasetItem.difficulty), so re-exporting a version always yields the same bytes; versions made
 * before difficulty existed carry none, and their exports have no `difficulty` field at all.
 */
import type { DifficultyFigures, ScenarioDifficulty } from "../difficulty/estimators";

type Figures = {
  n: number;
  successes: number;
  success_rate: number | null;
  k: number;
  pass_at_k: number | null;
  pass_hat_k: number | null;
  mean_reward: number | null;
  reward_variance: number | null;
  group_size: number;
  p_signal: number | null;
};

export type ExportDifficulty = Figures & { per_model: (Figures & { model: string })[] };

/** Fixed key order: the bytes of an export do not depend on how the snapshot was stored. */
const figures = (d: DifficultyFigures): Figures => ({
  n: d.n,
  successes: d.successes,
  success_rate: d.success_rate,
  k: d.k,
  pass_at_k: d.pass_at_k,
  pass_hat_k: d.pass_hat_k,
  mean_reward: d.mean_reward,
  reward_variance: d.reward_variance,
  group_size: d.group_size,
  p_signal: d.p_signal,
});

export function toExportDifficulty(d: ScenarioDifficulty): ExportDifficulty {
  return {
    ...figures(d),
    per_model: Object.keys(d.per_model)
      .sort()
      .flatMap((model) => {
        const m = d.per_model[model];
        return m ? [{ model, ...figures(m) }] : [];
      }),
  };
}

/** Spread into a JSON row: nothing at all when the version froze no difficulty. */
export const difficultyField = (d: ExportDifficulty | null | undefined) => (d ? { difficulty: d } : {});

export const DIFFICULTY_INT_FIELDS = ["n", "successes", "k", "group_size"] as const;
export const DIFFICULTY_FLOAT_FIELDS = [
  "success_rate",
  "pass_at_k",
  "pass_hat_k",
  "mean_reward",
  "reward_variance",
  "p_signal",
] as const;
