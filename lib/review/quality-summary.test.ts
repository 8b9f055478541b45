import { describe, expect, it } from "vitest";
import { qualitySummary } from "./quality-summary";

describe("quality summary", () => {
  it("shows one metric against its threshold and recomputes it after reviewer overrides", () => {
    const probes = [
      { verdict: "PASS", reviewerVerdict: null },
      { verdict: "WARNING", reviewerVerdict: null },
      { verdict: "FAIL", reviewerVerdict: null },
      { verdict: "PASS", reviewerVerdict: null },
    ];
    const before = qualitySummary({ threshold: 0.85, probes });
    expect(before).toMatchObject({ rate: 0.75, passed: false, notFailing: 3, total: 4 });
    expect(before.text).toBe(
      "not-fail rate 75 % (3 of 4 probe calls not failing) against the threshold 85 %: ✗ below threshold",
    );
    const after = qualitySummary({
      threshold: 0.85,
      probes: probes.map((p, i) => (i === 2 ? { ...p, reviewerVerdict: "PASS" } : p)),
    });
    expect(after.text).toBe(
      "not-fail rate 100 % (4 of 4 probe calls not failing, after 1 reviewer override) against the threshold 85 %: ✓ passed",
    );
  });
});
