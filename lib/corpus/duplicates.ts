/**
 * When two environment versions count as near-duplicates, and how pairs become clusters.
 * Code similarity is the MinHash estimate of the Jaccard similarity of normalised 5-token code
 * shingles; tool similarity is the exact Jaccard similarity of the tool-signature sets.
 */
export const CODE_DUPLICATE = 0.7;
export const TOOL_DUPLICATE = 0.8;
/** Two environments with one or two tools share a signature by accident (`get_info()`): not evidence. */
export const MIN_TOOLS_FOR_TOOL_MATCH = 3;

export type SimilarPair = {
  a: string;
  b: string;
  codeSimilarity: number;
  toolSimilarity: number;
  toolsA: number;
  toolsB: number;
};

export function isNearDuplicate(p: SimilarPair): boolean {
  if (p.codeSimilarity >= CODE_DUPLICATE) return true;
  return p.toolSimilarity >= TOOL_DUPLICATE && Math.min(p.toolsA, p.toolsB) >= MIN_TOOLS_FOR_TOOL_MATCH;
}

export type DuplicateCluster = {
  /** Member ids (environment version ids), sorted. */
  members: string[];
  pairs: number;
  maxCodeSimilarity: number;
  maxToolSimilarity: number;
};

/** Canonical key of an unordered pair (dismissals are stored this way). */
export const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/**
 * Connected components of the near-duplicate pairs (union-find), largest first, then most similar,
 * then by first member so pages are stable. A pair in `dismissed` (pairKey) is not an edge.
 */
export function clusterPairs(pairs: readonly SimilarPair[], dismissed: ReadonlySet<string> = new Set()) {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    for (let n = x; n !== root;) {
      const next = parent.get(n)!;
      parent.set(n, root);
      n = next;
    }
    return root;
  };
  const edges = pairs.filter((p) => isNearDuplicate(p) && !dismissed.has(pairKey(p.a, p.b)));
  for (const p of edges) {
    if (!parent.has(p.a)) parent.set(p.a, p.a);
    if (!parent.has(p.b)) parent.set(p.b, p.b);
    const [ra, rb] = [find(p.a), find(p.b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const byRoot = new Map<string, DuplicateCluster>();
  for (const p of edges) {
    const root = find(p.a);
    const c = byRoot.get(root) ?? { members: [], pairs: 0, maxCodeSimilarity: 0, maxToolSimilarity: 0 };
    c.pairs += 1;
    c.maxCodeSimilarity = Math.max(c.maxCodeSimilarity, p.codeSimilarity);
    c.maxToolSimilarity = Math.max(c.maxToolSimilarity, p.toolSimilarity);
    byRoot.set(root, c);
  }
  for (const id of parent.keys()) byRoot.get(find(id))?.members.push(id);
  const clusters = [...byRoot.values()].map((c) => ({ ...c, members: c.members.sort() }));
  return clusters.sort(
    (x, y) =>
      y.members.length - x.members.length ||
      Math.max(y.maxCodeSimilarity, y.maxToolSimilarity) -
        Math.max(x.maxCodeSimilarity, x.maxToolSimilarity) ||
      (x.members[0]! < y.members[0]! ? -1 : 1),
  );
}
