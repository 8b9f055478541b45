/**
 * MinHash over 32-bit hashes without BigInt: each of the k hash functions is a murmur3 finaliser of
 * the item hash XOR a per-function seed, so a 10,000-environment backfill stays cheap. Values are
 * signed 32-bit integers so they store as Postgres `integer[]` unchanged.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

function mix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const seedsCache = new Map<number, Int32Array>();
function seeds(k: number): Int32Array {
  let s = seedsCache.get(k);
  if (!s) {
    s = Int32Array.from({ length: k }, (_, i) => mix32(hashString(`minhash-seed-${i}`)));
    seedsCache.set(k, s);
  }
  return s;
}

/** k minimum hashes of the items; an empty set gives k zeros (compares equal only to another empty set). */
export function minhash(items: Iterable<string>, k: number): number[] {
  const s = seeds(k);
  const mins = new Int32Array(k).fill(0x7fffffff);
  let any = false;
  for (const item of items) {
    any = true;
    const x = hashString(item);
    for (let i = 0; i < k; i += 1) {
      const h = mix32(x ^ s[i]!);
      if (h < mins[i]!) mins[i] = h;
    }
  }
  return any ? Array.from(mins) : new Array<number>(k).fill(0);
}

/** Share of equal positions: an unbiased estimate of the Jaccard similarity of the two sets. */
export function estimateJaccard(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] === b[i]) same += 1;
  return same / a.length;
}

/** Exact Jaccard similarity of two sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter += 1;
  return inter / (a.size + b.size - inter);
}

/**
 * Locality-sensitive band keys: the signature cut into `bands` bands of equal rows, each band hashed
 * with its index and a kind tag. Two signatures share a key when one band is identical, which for
 * Jaccard s happens with probability 1 − (1 − s^rows)^bands: the candidate pairs a corpus query
 * joins on, instead of comparing every pair.
 */
export function bandKeys(signature: readonly number[], bands: number, tag: number): number[] {
  const rows = Math.floor(signature.length / bands);
  const keys: number[] = [];
  for (let b = 0; b < bands; b += 1) {
    let h = hashString(`${tag}:${b}`);
    for (let r = 0; r < rows; r += 1) h = mix32(h ^ signature[b * rows + r]!);
    // tag and band index in the high bits keep keys of different bands and kinds apart (fits in 2^53).
    keys.push((tag * 64 + b) * 2 ** 32 + (h >>> 0));
  }
  return keys;
}
