import { describe, expect, it } from "vitest";
import { bucketCountTally, bucketCounts, bucketFractionTally, bucketFractions, fillDays } from "./charts";

describe("dashboard chart shaping", () => {
  it("buckets counts into labelled ranges", () => {
    expect(bucketCounts([0, 1, 4, 5, 12, 30], [0, 1, 5, 10, 20])).toEqual([
      { label: "0", value: 1 },
      { label: "1–4", value: 2 },
      { label: "5–9", value: 1 },
      { label: "10–19", value: 1 },
      { label: "20+", value: 1 },
    ]);
  });
  it("bins fractions with 1.0 in the last bin", () => {
    const bins = bucketFractions([0, 0.05, 0.5, 1, 1]);
    expect(bins[0]!.value).toBe(2);
    expect(bins[5]!.value).toBe(1);
    expect(bins[9]!.value).toBe(2);
  });
  it("buckets a tally (value, rows) as it buckets the rows themselves", () => {
    const rows = [0, 1, 1, 1, 4, 5, 12, 12, 30];
    const tally = [
      { value: 0, count: 1 },
      { value: 1, count: 3 },
      { value: 4, count: 1 },
      { value: 5, count: 1 },
      { value: 12, count: 2 },
      { value: 30, count: 1 },
    ];
    expect(bucketCountTally(tally, [0, 1, 5, 10, 20])).toEqual(bucketCounts(rows, [0, 1, 5, 10, 20]));
    const fractions = [0, 0.05, 0.05, 0.5, 1, 1, 1];
    const fractionTally = [
      { value: 0, count: 1 },
      { value: 0.05, count: 2 },
      { value: 0.5, count: 1 },
      { value: 1, count: 3 },
      { value: Number.NaN, count: 4 },
    ];
    expect(bucketFractionTally(fractionTally)).toEqual(bucketFractions(fractions));
  });
  it("fills missing days with zero", () => {
    expect(fillDays([{ day: "2026-12-01", value: 2.5 }], 3, new Date("2026-12-02T10:00:00Z"))).toEqual([
      { label: "2026-11-30", value: 0 },
      { label: "2026-12-01", value: 2.5 },
      { label: "2026-12-02", value: 0 },
    ]);
  });
});
