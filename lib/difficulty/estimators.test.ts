import { describe, expect, it } from "vitest";
import {
  DifficultyOptionsSchema,
  binomialRatio,
  difficultyFigures,
  expectedZeroSignalShare,
  isZeroSignal,
  passAtK,
  passHatK,
  scenarioDifficulty,
  signalProbability,
} from "./estimators";

const counts = (rewards: number[]) => ({
  n: rewards.length,
  successes: rewards.filter((r) => r === 1).length,
  rewardSum: rewards.reduce((a, b) => a + b, 0),
  rewardSquareSum: rewards.reduce((a, b) => a + b * b, 0),
});

describe("unbiased estimators (hand computation)", () => {
  it("pass@k and pass^k at n > k differ from the plug-in p^k", () => {
    // n = 10, c = 3, k = 2: C(7,2)/C(10,2) = 21/45, C(3,2)/C(10,2) = 3/45.
    expect(passAtK(10, 3, 2)).toBeCloseTo(1 - 21 / 45, 12);
    expect(passHatK(10, 3, 2)).toBeCloseTo(3 / 45, 12);
    expect(passHatK(10, 3, 2)).not.toBeCloseTo(0.3 ** 2, 3);
    // k = 4: C(7,4)/C(10,4) = 35/210; fewer successes than k → pass^k = 0 exactly.
    expect(passAtK(10, 3, 4)).toBeCloseTo(1 - 35 / 210, 12);
    expect(passHatK(10, 3, 4)).toBe(0);
    // n = 8, c = 6, k = 4: C(6,4)/C(8,4) = 15/70; fewer failures than k → pass@k = 1 exactly.
    expect(passHatK(8, 6, 4)).toBeCloseTo(15 / 70, 12);
    expect(passAtK(8, 6, 4)).toBe(1);
  });

  it("at n = k they are the all-or-any indicators", () => {
    expect(passAtK(4, 1, 4)).toBe(1);
    expect(passAtK(4, 0, 4)).toBe(0);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 3, 4)).toBe(0);
  });

  it("has no estimate below k samples", () => {
    expect(passAtK(3, 1, 4)).toBeNull();
    expect(passHatK(0, 0, 1)).toBeNull();
    expect(() => binomialRatio(1, 3, 4)).toThrow(RangeError);
  });

  it("stays finite at large n (no factorials)", () => {
    expect(passHatK(2000, 1000, 50)).toBeGreaterThan(0);
    expect(passHatK(2000, 1000, 50)).toBeLessThan(0.5 ** 50);
  });
});

describe("P(signal)", () => {
  it("is 1 − p^G − (1 − p)^G", () => {
    expect(signalProbability(0.3, 8)).toBeCloseTo(1 - 0.3 ** 8 - 0.7 ** 8, 12);
    expect(signalProbability(0.5, 2)).toBeCloseTo(0.5, 12);
    expect(signalProbability(0, 8)).toBe(0);
    expect(signalProbability(1, 8)).toBe(0);
  });

  it("the expected zero-signal share averages over scenarios with rollouts", () => {
    // p = 1 → 1 (no signal), p = 0.5 at G = 2 → 0.5; the unmeasured one does not count.
    expect(
      expectedZeroSignalShare(
        [
          { n: 4, successes: 4 },
          { n: 2, successes: 1 },
          { n: 0, successes: 0 },
        ],
        2,
      ),
    ).toBeCloseTo(0.75, 6);
    expect(expectedZeroSignalShare([{ n: 0, successes: 0 }], 8)).toBeNull();
  });
});

describe("difficultyFigures", () => {
  it("matches hand computation for rewards [1, 0, 0.5, 1] at k = 2, G = 4", () => {
    const d = difficultyFigures(counts([1, 0, 0.5, 1]), { k: 2, groupSize: 4 });
    // c = 2 (reward 1 only), n = 4: pass@2 = 1 − C(2,2)/C(4,2) = 5/6, pass^2 = C(2,2)/C(4,2) = 1/6.
    expect(d).toEqual({
      n: 4,
      successes: 2,
      success_rate: 0.5,
      k: 2,
      pass_at_k: 0.833333,
      pass_hat_k: 0.166667,
      mean_reward: 0.625,
      reward_variance: 0.171875, // (1 + 0 + 0.25 + 1)/4 − 0.625²
      group_size: 4,
      p_signal: 0.875, // 1 − 0.5⁴ − 0.5⁴
    });
  });

  it("without rollouts every estimate is null", () => {
    const d = difficultyFigures(counts([]), { k: 1, groupSize: 8 });
    expect(d).toMatchObject({ n: 0, success_rate: null, pass_at_k: null, p_signal: null });
  });

  it("pools models and nests each model's figures", () => {
    const d = scenarioDifficulty(
      { b: counts([1, 1, 1, 1]), a: counts([0, 0, 0, 0, 1, 0]) },
      { k: 4, groupSize: 8 },
    );
    expect(d.n).toBe(10);
    expect(d.successes).toBe(5);
    expect(d.pass_hat_k).toBeCloseTo(5 / 210, 6); // C(5,4)/C(10,4)
    expect(Object.keys(d.per_model)).toEqual(["a", "b"]);
    expect(d.per_model.b).toMatchObject({ n: 4, successes: 4, pass_hat_k: 1, p_signal: 0 });
    expect(d.per_model.a?.pass_at_k).toBeCloseTo(1 - 5 / 15, 6); // 1 − C(5,4)/C(6,4)
  });

  it("zero signal: all solved or none (with rollouts)", () => {
    expect(isZeroSignal({ n: 8, successes: 8 })).toBe(true);
    expect(isZeroSignal({ n: 8, successes: 0 })).toBe(true);
    expect(isZeroSignal({ n: 8, successes: 3 })).toBe(false);
    expect(isZeroSignal({ n: 0, successes: 0 })).toBe(false);
  });

  it("refuses a group of fewer than 2 and a k below 1", () => {
    expect(DifficultyOptionsSchema.safeParse({ groupSize: 1 }).error?.issues[0]?.message).toMatch(
      /at least 2/,
    );
    expect(DifficultyOptionsSchema.safeParse({ k: 0 }).success).toBe(false);
    expect(DifficultyOptionsSchema.parse({})).toEqual({ k: 4, groupSize: 8 });
  });
});
