/**
 * One well-defined quality metric (pure): the share of probe calls whose verdict is not FAIL,
 * counting a reviewer's verdict over the judge's, against the check's threshold. The pipeline
 * decides `passed` on the same not-fail rate (lib/pipeline/stages/quality-check.ts); this
 * recomputes it after reviewer overrides, so the summary never compares two different rates.
 */
export type QualityInput = {
  threshold: number;
  probes: { verdict: string; reviewerVerdict: string | null }[];
};
export type QualitySummary = {
  rate: number;
  threshold: number;
  passed: boolean;
  notFailing: number;
  total: number;
  overridden: number;
  text: string;
};

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function qualitySummary(check: QualityInput): QualitySummary {
  const total = check.probes.length;
  const notFailing = check.probes.filter((p) => (p.reviewerVerdict ?? p.verdict) !== "FAIL").length;
  const overridden = check.probes.filter(
    (p) => p.reviewerVerdict !== null && p.reviewerVerdict !== p.verdict,
  ).length;
  const rate = total ? notFailing / total : 0;
  const passed = total > 0 && rate >= check.threshold;
  const after = overridden ? `, after ${overridden} reviewer override${overridden > 1 ? "s" : ""}` : "";
  const text = `not-fail rate ${pct(rate)} (${notFailing} of ${total} probe calls not failing${after}) against the threshold ${pct(check.threshold)}: ${passed ? "✓ passed" : "✗ below threshold"}`;
  return { rate, threshold: check.threshold, passed, notFailing, total, overridden, text };
}
