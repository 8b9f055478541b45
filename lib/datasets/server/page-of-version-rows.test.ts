import { describe, expect, it } from "vitest";
import { slicesOf } from "./page-of-version-rows";

const groups = [
  { environmentVersionId: "a", n: 3 },
  { environmentVersionId: "b", n: 1 },
  { environmentVersionId: "c", n: 4 },
];

describe("slicesOf: where a page falls among environment versions in export order", () => {
  it("reads a page that spans groups from each, in order", () => {
    expect(slicesOf(groups, 2, 4)).toEqual([
      { environmentVersionId: "a", skip: 2, take: 1 },
      { environmentVersionId: "b", skip: 0, take: 1 },
      { environmentVersionId: "c", skip: 0, take: 2 },
    ]);
  });
  it("reads inside one group, and nothing past the end", () => {
    expect(slicesOf(groups, 5, 2)).toEqual([{ environmentVersionId: "c", skip: 1, take: 2 }]);
    expect(slicesOf(groups, 6, 25)).toEqual([{ environmentVersionId: "c", skip: 2, take: 2 }]);
    expect(slicesOf(groups, 8, 25)).toEqual([]);
    expect(slicesOf([], 0, 25)).toEqual([]);
  });
});
