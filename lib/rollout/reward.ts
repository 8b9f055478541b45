/**
 * Reward = fraction of checks that returned True (spec §5.4); a check that raised counts as 0 but
 * stays in the denominator. Fixes over EnvScaler: an empty checklist scores 0 instead of dividing by
 * zero, and the raw score is always kept so a policy of "zero on truncation" can be audited.
 */
import type { CheckOutcome, EndReason, RewardPolicy } from "./rollout.schema";

export function scoreChecks(results: CheckOutcome[]): number {
  if (results.length === 0) return 0;
  const passed = results.filter((r) => "passed" in r && r.passed).length;
  return Math.round((passed / results.length) * 10_000) / 10_000;
}

export function applyRewardPolicy(score: number, end: EndReason, policy: RewardPolicy): number {
  if (end === "step_limit" && policy.onTruncated === "zero") return 0;
  if (end === "crashed" && policy.onCrash === "zero") return 0;
  return score;
}
