/**
 * Three-way line merge (diff3) for code edits that raced: base = the version the editor started
 * from, theirs = the head someone saved meanwhile, mine = the editor's buffer. Regions changed on
 * one side only (or identically on both) merge automatically; regions both sides changed
 * differently are conflicts that a person resolves by an explicit choice. Pure.
 */
export type MergeChunk =
  | { kind: "merged"; lines: string[]; from: "base" | "mine" | "theirs" | "both" }
  | { kind: "conflict"; base: string[]; mine: string[]; theirs: string[] };

export type ConflictChoice = "mine" | "theirs" | "both";

const splitLines = (text: string) => text.split("\n");

/**
 * Myers' O(ND) diff: for each line of `a`, the index of the line of `b` it is matched with (-1 if
 * none). Matches are increasing, which is what diff3 needs to find the lines all three share.
 */
export function matchLines(a: string[], b: string[]): number[] {
  const match = new Array<number>(a.length).fill(-1);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) match[start] = start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) match[--endA] = --endB;
  const trace = myersTrace(a, b, start, endA, start, endB);
  for (const [i, j] of trace) match[i] = j;
  return match;
}

/** The snake points of the shortest edit script between a[lo..hiA) and b[lo..hiB). */
function myersTrace(
  a: string[],
  b: string[],
  loA: number,
  hiA: number,
  loB: number,
  hiB: number,
): [number, number][] {
  const n = hiA - loA;
  const m = hiB - loB;
  const max = n + m;
  const offset = max + 1;
  const v = new Array<number>(2 * max + 3).fill(0);
  const history: number[][] = [];
  outer: for (let d = 0; d <= max; d++) {
    history.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[loA + x] === b[loB + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  return backtrack(history, a, b, { loA, loB, n, m, offset });
}

function backtrack(
  history: number[][],
  a: string[],
  b: string[],
  g: { loA: number; loB: number; n: number; m: number; offset: number },
): [number, number][] {
  const pairs: [number, number][] = [];
  let x = g.n;
  let y = g.m;
  for (let d = history.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const v = history[d] ?? [];
    const k = x - y;
    const down = k === -d || (k !== d && (v[g.offset + k - 1] ?? 0) < (v[g.offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : (v[g.offset + prevK] ?? 0);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY && a[g.loA + x - 1] === b[g.loB + y - 1]) {
      pairs.push([g.loA + x - 1, g.loB + y - 1]);
      x--;
      y--;
    }
    x = prevX;
    y = prevY;
  }
  return pairs;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((l, i) => l === b[i]);

export function mergeThreeWay(baseText: string, mineText: string, theirsText: string): MergeChunk[] {
  const [base, mine, theirs] = [splitLines(baseText), splitLines(mineText), splitLines(theirsText)];
  const toMine = matchLines(base, mine);
  const toTheirs = matchLines(base, theirs);
  const chunks: MergeChunk[] = [];
  let [i, a, b] = [0, 0, 0];
  while (i < base.length || a < mine.length || b < theirs.length) {
    if (i < base.length && toMine[i] === a && toTheirs[i] === b) {
      pushMerged(chunks, [base[i] ?? ""], "base");
      [i, a, b] = [i + 1, a + 1, b + 1];
      continue;
    }
    // The next base line both sides kept: everything before it is one unstable region.
    let j = i;
    while (j < base.length && ((toMine[j] ?? -1) < a || (toTheirs[j] ?? -1) < b)) j++;
    const [endA, endB] = j < base.length ? [toMine[j] ?? a, toTheirs[j] ?? b] : [mine.length, theirs.length];
    chunks.push(resolveRegion(base.slice(i, j), mine.slice(a, endA), theirs.slice(b, endB)));
    [i, a, b] = [j, endA, endB];
  }
  return chunks;
}

function resolveRegion(base: string[], mine: string[], theirs: string[]): MergeChunk {
  if (same(mine, base)) return { kind: "merged", lines: theirs, from: "theirs" };
  if (same(theirs, base)) return { kind: "merged", lines: mine, from: "mine" };
  if (same(mine, theirs)) return { kind: "merged", lines: mine, from: "both" };
  return { kind: "conflict", base, mine, theirs };
}

function pushMerged(chunks: MergeChunk[], lines: string[], from: "base") {
  const last = chunks[chunks.length - 1];
  if (last?.kind === "merged" && last.from === from) last.lines.push(...lines);
  else chunks.push({ kind: "merged", lines, from });
}

/** The merged text once every conflict has a choice (in order); null while any is open. */
export function applyChoices(chunks: MergeChunk[], choices: (ConflictChoice | undefined)[]): string | null {
  const out: string[] = [];
  let c = 0;
  for (const chunk of chunks) {
    if (chunk.kind === "merged") {
      out.push(...chunk.lines);
      continue;
    }
    const choice = choices[c++];
    if (!choice) return null;
    out.push(
      ...(choice === "mine"
        ? chunk.mine
        : choice === "theirs"
          ? chunk.theirs
          : [...chunk.theirs, ...chunk.mine]),
    );
  }
  return out.join("\n");
}

export const conflictCount = (chunks: MergeChunk[]) => chunks.filter((c) => c.kind === "conflict").length;
export const autoMergedCount = (chunks: MergeChunk[]) =>
  chunks.filter((c) => c.kind === "merged" && c.from !== "base").length;
