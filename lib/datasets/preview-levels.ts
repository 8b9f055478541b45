/**
 * The preview's pages on the default pins, read as key-ordered runs instead of sorting the corpus
 * (pure). Included items are ordered by their sort value, then by key; the sort value depends on
 * an item's (n, successes) alone, so the items of one value ("level") are the union of a few
 * (n, successes) buckets, each an index range in key order, filtered to the sides that keep it.
 * With each level's count known from the grouped facts, a page is a few (level, offset, limit)
 * segments, each answered by merging its buckets' ranges by key.
 */
import type { DifficultyLookup, SideGroup } from "./preview-from-groups";

/** Which sides' environments a bucket's run reads. */
export type Sides = "both" | "train" | "test";

export type BucketRun = { n: number; successes: number; sides: Sides };

export type Level = { runs: BucketRun[]; count: number };

export type Segment<T> = { part: T; offset: number; limit: number };

/**
 * The segments of `[offset, offset + limit)` over parts read one after another, each holding
 * `count` rows: the page, where it lands.
 */
export function pageSegments<T extends { count: number }>(
  parts: readonly T[],
  offset: number,
  limit: number,
): Segment<T>[] {
  const out: Segment<T>[] = [];
  let skip = offset;
  let want = limit;
  for (const part of parts) {
    if (want <= 0) break;
    if (skip >= part.count) {
      skip -= part.count;
      continue;
    }
    const take = Math.min(want, part.count - skip);
    out.push({ part, offset: skip, limit: take });
    want -= take;
    skip = 0;
  }
  return out;
}

/**
 * Postgres's order of a float8 sort key: NaN above every number, NULLS LAST in both directions
 * (as the scanning path's `ORDER BY metric ASC|DESC NULLS LAST`).
 */
export function compareMetric(a: number | null, b: number | null, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a - b;
  return descending ? -order : order;
}

const sidesOf = (train: boolean, test: boolean): Sides | null =>
  train && test ? "both" : train ? "train" : test ? "test" : null;

type Count = (test: boolean, n: number, successes: number) => number;

/** Included items by side and counts (weak only, for the weak list). */
function counter(sides: readonly SideGroup[], weakOnly: boolean): Count {
  const counts = new Map<string, number>();
  for (const g of sides) {
    if (weakOnly && !g.weak) continue;
    const key = `${g.test} ${g.n} ${g.successes}`;
    counts.set(key, (counts.get(key) ?? 0) + g.count);
  }
  return (test, n, successes) => counts.get(`${test} ${n} ${successes}`) ?? 0;
}

/** Buckets with their drop verdict on each side, from the lookup (both sides share a pair's metric). */
function buckets(lookup: readonly DifficultyLookup[]) {
  const byPair = new Map<
    string,
    { n: number; successes: number; metric: number | null; dropped: [boolean, boolean] }
  >();
  for (const l of lookup) {
    const key = `${l.n} ${l.successes}`;
    const b = byPair.get(key) ?? {
      n: l.n,
      successes: l.successes,
      metric: l.metric,
      dropped: [false, false],
    };
    b.dropped[l.test ? 1 : 0] = l.dropped;
    byPair.set(key, b);
  }
  return [...byPair.values()];
}

/** The kept included items' levels in page order: by sort value (descending for p_signal), then key. */
export function includedLevels(
  lookup: readonly DifficultyLookup[],
  sides: readonly SideGroup[],
  opts: { descending: boolean; weakOnly: boolean },
): Level[] {
  const count = counter(sides, opts.weakOnly);
  const levels = new Map<number | null, Level>();
  for (const b of buckets(lookup)) {
    const train = !b.dropped[0] && count(false, b.n, b.successes) > 0;
    const test = !b.dropped[1] && count(true, b.n, b.successes) > 0;
    const which = sidesOf(train, test);
    if (!which) continue;
    const level = levels.get(b.metric) ?? { runs: [], count: 0 };
    level.runs.push({ n: b.n, successes: b.successes, sides: which });
    level.count += (train ? count(false, b.n, b.successes) : 0) + (test ? count(true, b.n, b.successes) : 0);
    levels.set(b.metric, level);
  }
  return [...levels].sort(([a], [b]) => compareMetric(a, b, opts.descending)).map(([, level]) => level);
}

/** The included items difficulty leaves out, as one level (the left-out list orders them by key). */
export function droppedLevel(lookup: readonly DifficultyLookup[], sides: readonly SideGroup[]): Level {
  const count = counter(sides, false);
  const level: Level = { runs: [], count: 0 };
  for (const b of buckets(lookup)) {
    const train = b.dropped[0] && count(false, b.n, b.successes) > 0;
    const test = b.dropped[1] && count(true, b.n, b.successes) > 0;
    const which = sidesOf(train, test);
    if (!which) continue;
    level.runs.push({ n: b.n, successes: b.successes, sides: which });
    level.count += (train ? count(false, b.n, b.successes) : 0) + (test ? count(true, b.n, b.successes) : 0);
  }
  return level;
}
