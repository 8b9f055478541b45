import { describe, expect, it } from "vitest";
import { normaliseCodeTokens, tokenShingles } from "./code-tokens";
import { clusterPairs, isNearDuplicate, pairKey, type SimilarPair } from "./duplicates";
import { bandKeys, estimateJaccard, jaccard, minhash } from "./minhash";
import { computeEnvironmentSignature, toolSignatures } from "./signature";
import { bucketDifficulty, bucketToolCounts, difficultyBucket, topWithOther } from "./splits";

const tool = (name: string, params: string[]) => ({
  type: "function",
  function: {
    name,
    description: "",
    parameters: { type: "object", properties: Object.fromEntries(params.map((p) => [p, {}])), required: [] },
  },
});

const LIBRARY = `
class Library:
    """A lending library."""
    def __init__(self, init_config=None):
        self.books = {}  # id -> book
        self.loans = []

    def lend_book(self, book_id: str, member_id: str) -> dict:
        """Lend a book to a member."""
        book = self.books.get(book_id)
        if book is None:
            return {"success": False, "error": "no such book"}
        if book["copies"] <= 0:
            return {"success": False, "error": "no copies left"}
        book["copies"] -= 1
        self.loans.append({"book": book_id, "member": member_id, "days": 14})
        return {"success": True, "data": book}

    def return_book(self, book_id: str, member_id: str) -> dict:
        for loan in self.loans:
            if loan["book"] == book_id and loan["member"] == member_id:
                self.loans.remove(loan)
                self.books[book_id]["copies"] += 1
                return {"success": True}
        return {"success": False, "error": "not on loan"}
`;

const HOTEL = `
class Hotel:
    def __init__(self, init_config=None):
        self.rooms = {}
        self.guests = {}

    def check_in(self, guest: str, nights: int) -> dict:
        free = [r for r, v in self.rooms.items() if v is None]
        if not free:
            return {"success": False, "error": "full"}
        self.rooms[free[0]] = guest
        self.guests[guest] = {"room": free[0], "nights": nights}
        return {"success": True, "data": free[0]}

    def invoice(self, guest: str) -> dict:
        stay = self.guests.get(guest)
        total = stay["nights"] * 120.5 if stay else 0
        return {"success": stay is not None, "data": total}
`;

describe("code normalisation", () => {
  it("drops comments, folds literals and lower-cases names", () => {
    expect(normaliseCodeTokens(`x = Foo("a b", 'c') + 42  # note\n"""doc"""`)).toEqual([
      "x",
      "=",
      "foo",
      "(",
      "STR",
      ",",
      "STR",
      ")",
      "+",
      "NUM",
      "STR",
    ]);
  });

  it("makes a copy with other docstrings, comments and literals identical", () => {
    const reworded = LIBRARY.replace(/"""[^"]*"""/g, '"""Different words entirely."""')
      .replace(/# id -> book/, "# maps ids")
      .replace("14", "21")
      .replace('"no such book"', '"unknown title"');
    expect(normaliseCodeTokens(reworded)).toEqual(normaliseCodeTokens(LIBRARY));
  });

  it("shingles contiguous tokens and keeps a short stream as one shingle", () => {
    expect(tokenShingles(["a", "b", "c"], 5)).toEqual(["a b c"]);
    expect(tokenShingles(["a", "b", "c", "d"], 3)).toEqual(["a b c", "b c d"]);
    // Boilerplate windows (keywords, self, literals, operators only) are not shingles.
    expect(tokenShingles(["return", "{", "STR", ":", "false", "loans"], 5)).toEqual(["{ STR : false loans"]);
    expect(tokenShingles([], 3)).toEqual([]);
  });
});

describe("minhash", () => {
  it("estimates Jaccard similarity within a few points", () => {
    const a = Array.from({ length: 200 }, (_, i) => `s${i}`);
    const b = [...a.slice(50), ...Array.from({ length: 50 }, (_, i) => `t${i}`)]; // 150 shared of 250
    const exact = jaccard(new Set(a), new Set(b));
    expect(exact).toBeCloseTo(0.6, 5);
    expect(Math.abs(estimateJaccard(minhash(a, 256), minhash(b, 256)) - exact)).toBeLessThan(0.1);
    expect(estimateJaccard(minhash(a, 64), minhash(a, 64))).toBe(1);
  });

  it("gives band keys that collide for identical bands only, apart per band and tag", () => {
    const sig = minhash(["x", "y", "z"], 8);
    const other = [...sig];
    other[7] = other[7]! + 1; // only the last band differs
    const [k1, k2] = [bandKeys(sig, 2, 1), bandKeys(other, 2, 1)];
    expect(k1[0]).toBe(k2[0]);
    expect(k1[1]).not.toBe(k2[1]);
    expect(new Set([...bandKeys(sig, 2, 1), ...bandKeys(sig, 2, 2)]).size).toBe(4);
    expect(k1.every((k) => Number.isSafeInteger(k))).toBe(true);
  });
});

describe("environment signature", () => {
  it("reads tool signatures as sorted name(params)", () => {
    expect(toolSignatures([tool("Lend_Book", ["member_id", "book_id"]), tool("ping", [])])).toEqual([
      "lend_book(book_id,member_id)",
      "ping()",
    ]);
    expect(toolSignatures("not tools")).toEqual([]);
  });

  it("finds a renamed copy similar and an unrelated class not", () => {
    const copy = computeEnvironmentSignature({
      source: LIBRARY.replace(/"""[^"]*"""/g, '"""x"""'),
      tools: [],
    });
    const lib = computeEnvironmentSignature({ source: LIBRARY, tools: [] });
    const hotel = computeEnvironmentSignature({ source: HOTEL, tools: [] });
    expect(estimateJaccard(lib.codeMinhash, copy.codeMinhash)).toBe(1);
    expect(estimateJaccard(lib.codeMinhash, hotel.codeMinhash)).toBeLessThan(0.2);
    expect(lib.bands.filter((b) => hotel.bands.includes(b))).toEqual([]);
    expect(lib.bands.some((b) => copy.bands.includes(b))).toBe(true);
  });

  it("gives no tool bands to an environment without tools", () => {
    const sig = computeEnvironmentSignature({ source: HOTEL, tools: [] });
    expect(sig.bands).toHaveLength(16);
    expect(computeEnvironmentSignature({ source: HOTEL, tools: [tool("a", [])] }).bands).toHaveLength(24);
  });
});

describe("near-duplicate rule and clusters", () => {
  const pair = (a: string, b: string, code: number, tools = 0, n = 5): SimilarPair => ({
    a,
    b,
    codeSimilarity: code,
    toolSimilarity: tools,
    toolsA: n,
    toolsB: n,
  });

  it("needs code ≥ 0.7, or tools ≥ 0.8 with at least 3 tools each", () => {
    expect(isNearDuplicate(pair("a", "b", 0.7))).toBe(true);
    expect(isNearDuplicate(pair("a", "b", 0.69))).toBe(false);
    expect(isNearDuplicate(pair("a", "b", 0.1, 0.8))).toBe(true);
    expect(isNearDuplicate(pair("a", "b", 0.1, 1, 2))).toBe(false);
  });

  it("joins pairs transitively, largest first, and leaves out dismissed and dissimilar pairs", () => {
    const clusters = clusterPairs(
      [
        pair("d", "e", 0.9),
        pair("a", "b", 0.8),
        pair("b", "c", 0.75),
        pair("x", "y", 0.2),
        pair("f", "g", 0.95),
      ],
      new Set([pairKey("g", "f")]),
    );
    expect(clusters.map((c) => c.members)).toEqual([
      ["a", "b", "c"],
      ["d", "e"],
    ]);
    expect(clusters[0]).toMatchObject({ pairs: 2, maxCodeSimilarity: 0.8 });
  });
});

describe("splits", () => {
  it("buckets tool counts with every bucket shown", () => {
    expect(
      bucketToolCounts([
        { toolCount: 0, count: 2 },
        { toolCount: 3, count: 1 },
        { toolCount: 2, count: 4 },
        { toolCount: 40, count: 1 },
      ]),
    ).toEqual([
      { label: "0", count: 2 },
      { label: "1–3", count: 5 },
      { label: "4–6", count: 0 },
      { label: "7–10", count: 0 },
      { label: "11–20", count: 0 },
      { label: "21+", count: 1 },
    ]);
  });

  it("folds the tail into one other row", () => {
    const rows = ["a", "b", "c", "d"].map((label, i) => ({ label, count: 10 - i }));
    expect(topWithOther(rows, 3)).toEqual([
      { label: "a", count: 10 },
      { label: "b", count: 9 },
      { label: "other (2)", count: 15 },
    ]);
    expect(topWithOther(rows, 4)).toHaveLength(4);
  });
});

describe("difficulty buckets", () => {
  it("puts the zero-signal ends apart and splits the rest in thirds", () => {
    expect(
      [
        [0, 0],
        [4, 0],
        [4, 1],
        [3, 1],
        [3, 2],
        [4, 3],
        [5, 5],
      ].map(([n, s]) => difficultyBucket(n!, s!)),
    ).toEqual([
      "no rollouts",
      "never solved",
      "hard (under 1/3)",
      "medium (1/3–2/3)",
      "medium (1/3–2/3)",
      "easy (over 2/3)",
      "always solved",
    ]);
    expect(
      bucketDifficulty([
        { n: 4, successes: 1, count: 3 },
        { n: 8, successes: 1, count: 2 },
        { n: 2, successes: 2, count: 1 },
      ]),
    ).toEqual([
      { label: "no rollouts", count: 0 },
      { label: "never solved", count: 0 },
      { label: "hard (under 1/3)", count: 5 },
      { label: "medium (1/3–2/3)", count: 0 },
      { label: "easy (over 2/3)", count: 0 },
      { label: "always solved", count: 1 },
    ]);
  });
});
