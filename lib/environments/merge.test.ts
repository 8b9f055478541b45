import { describe, expect, it } from "vitest";
import { applyChoices, autoMergedCount, conflictCount, matchLines, mergeThreeWay } from "./merge";

const lines = (...l: string[]) => l.join("\n");

describe("three-way merge", () => {
  it("matches lines like a shortest edit script", () => {
    expect(matchLines(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"])).toEqual([0, -1, 2, 3]);
    expect(matchLines([], ["x"])).toEqual([]);
    expect(matchLines(["a", "b"], [])).toEqual([-1, -1]);
  });

  it("finds a longest common subsequence (checked against dynamic programming on seeded random inputs)", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = (n: number) =>
      Array.from({ length: Math.floor(rand() * n) }, () => "abc"[Math.floor(rand() * 3)] ?? "a");
    for (let run = 0; run < 300; run++) {
      const [a, b] = [pick(12), pick(12)];
      const match = matchLines(a, b);
      const pairs = match.map((j, i) => [i, j] as const).filter(([, j]) => j >= 0);
      expect(pairs.every(([i, j]) => a[i] === b[j])).toBe(true);
      expect(pairs.every(([, j], k) => k === 0 || j > (pairs[k - 1]?.[1] ?? -1))).toBe(true);
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i--)
        for (let j = b.length - 1; j >= 0; j--)
          dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
      expect(pairs.length).toBe(dp[0]![0]);
    }
  });

  it("merges changes to different regions without asking, keeping both", () => {
    const base = lines("class A:", '    """Old doc."""', "    def f(self):", "        return 1");
    const theirs = lines("class A:", '    """New doc."""', "    def f(self):", "        return 1");
    const mine = lines(
      "class A:",
      '    """Old doc."""',
      "    def f(self):",
      "        return 1",
      "# my comment",
    );
    const chunks = mergeThreeWay(base, mine, theirs);
    expect(conflictCount(chunks)).toBe(0);
    expect(autoMergedCount(chunks)).toBe(2);
    expect(applyChoices(chunks, [])).toBe(
      lines("class A:", '    """New doc."""', "    def f(self):", "        return 1", "# my comment"),
    );
  });

  it("shows overlapping edits as a conflict and resolves it only by an explicit choice", () => {
    const base = lines("a", "b", "c");
    const chunks = mergeThreeWay(base, lines("a", "B-mine", "c"), lines("a", "B-theirs", "c"));
    expect(chunks).toContainEqual({ kind: "conflict", base: ["b"], mine: ["B-mine"], theirs: ["B-theirs"] });
    expect(applyChoices(chunks, [])).toBeNull();
    expect(applyChoices(chunks, ["mine"])).toBe(lines("a", "B-mine", "c"));
    expect(applyChoices(chunks, ["theirs"])).toBe(lines("a", "B-theirs", "c"));
    expect(applyChoices(chunks, ["both"])).toBe(lines("a", "B-theirs", "B-mine", "c"));
  });

  it("treats insertions at the same place as a conflict, and identical edits as one", () => {
    const base = lines("x", "y");
    expect(conflictCount(mergeThreeWay(base, lines("x", "y", "mine"), lines("x", "y", "theirs")))).toBe(1);
    const same = mergeThreeWay(base, lines("x", "z"), lines("x", "z"));
    expect(conflictCount(same)).toBe(0);
    expect(applyChoices(same, [])).toBe(lines("x", "z"));
  });

  it("merges deletions on one side with edits elsewhere on the other", () => {
    const base = lines("1", "2", "3", "4", "5");
    const merged = applyChoices(
      mergeThreeWay(base, lines("1", "3", "4", "5"), lines("1", "2", "3", "4", "five")),
      [],
    );
    expect(merged).toBe(lines("1", "3", "4", "five"));
  });
});
