import { describe, expect, it } from "vitest";
import type { DifficultyLookup, SideGroup } from "./preview-from-groups";
import { compareMetric, droppedLevel, includedLevels, pageSegments } from "./preview-levels";

const parts = [{ count: 3 }, { count: 0 }, { count: 2 }, { count: 4 }];

describe("pageSegments", () => {
  it("cuts a page that spans parts into one segment per part, skipping empty ones", () => {
    expect(pageSegments(parts, 2, 4)).toEqual([
      { part: parts[0], offset: 2, limit: 1 },
      { part: parts[2], offset: 0, limit: 2 },
      { part: parts[3], offset: 0, limit: 1 },
    ]);
  });

  it("starts inside a later part, and stops at the last row", () => {
    expect(pageSegments(parts, 6, 10)).toEqual([{ part: parts[3], offset: 1, limit: 3 }]);
  });

  it("is empty past the end and for a zero limit", () => {
    expect(pageSegments(parts, 9, 5)).toEqual([]);
    expect(pageSegments(parts, 0, 0)).toEqual([]);
  });
});

describe("compareMetric sorts as Postgres sorts float8", () => {
  const values = [0.5, null, Number.NaN, -1, 0.25, null, 2];
  const sorted = (descending: boolean) => [...values].sort((a, b) => compareMetric(a, b, descending));

  it("ascending: numbers, then NaN, then nulls (NULLS LAST)", () => {
    expect(sorted(false)).toEqual([-1, 0.25, 0.5, 2, Number.NaN, null, null]);
  });

  it("descending: NaN first, then numbers, nulls still last", () => {
    expect(sorted(true)).toEqual([Number.NaN, 2, 0.5, 0.25, -1, null, null]);
  });
});

const lookup = (entries: [boolean, number, number, boolean, number | null][]): DifficultyLookup[] =>
  entries.map(([test, n, successes, dropped, metric]) => ({ test, n, successes, dropped, metric }));
const side = (test: boolean, n: number, successes: number, count: number, weak = false): SideGroup => ({
  test,
  n,
  successes,
  weak,
  problem: false,
  count,
});

describe("levels of the included and left-out pages", () => {
  // 8 rollouts: 0 and 8 successes have no signal (dropped on both sides); 2 of 4 and 4 of 8 share
  // the sort value 0.5; 6 of 8 is out of the test band only.
  const table = lookup([
    [false, 8, 0, true, 0],
    [true, 8, 0, true, 0],
    [false, 8, 8, true, 1],
    [true, 8, 8, true, 1],
    [false, 4, 2, false, 0.5],
    [true, 4, 2, false, 0.5],
    [false, 8, 4, false, 0.5],
    [true, 8, 4, false, 0.5],
    [false, 8, 6, false, 0.75],
    [true, 8, 6, true, 0.75],
  ]);
  const sides = [
    side(false, 8, 0, 5),
    side(true, 8, 8, 2),
    side(false, 4, 2, 3),
    side(true, 4, 2, 1, true),
    side(false, 8, 4, 4, true),
    side(false, 8, 6, 6),
    side(true, 8, 6, 7),
  ];

  it("groups kept buckets of one sort value into a level read from the sides that keep them", () => {
    expect(includedLevels(table, sides, { descending: false, weakOnly: false })).toEqual([
      {
        runs: [
          { n: 4, successes: 2, sides: "both" },
          { n: 8, successes: 4, sides: "train" },
        ],
        count: 8,
      },
      { runs: [{ n: 8, successes: 6, sides: "train" }], count: 6 },
    ]);
  });

  it("orders levels by descending value for p_signal, and counts only the weak for the weak list", () => {
    expect(includedLevels(table, sides, { descending: true, weakOnly: true })).toEqual([
      {
        runs: [
          { n: 4, successes: 2, sides: "test" },
          { n: 8, successes: 4, sides: "train" },
        ],
        count: 5,
      },
    ]);
  });

  it("puts every bucket difficulty leaves out, on the sides it leaves it out, in one level", () => {
    expect(droppedLevel(table, sides)).toEqual({
      runs: [
        { n: 8, successes: 0, sides: "train" },
        { n: 8, successes: 8, sides: "test" },
        { n: 8, successes: 6, sides: "test" },
      ],
      count: 14,
    });
  });
});
