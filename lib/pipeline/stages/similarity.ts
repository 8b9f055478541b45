/**
 * Lexical near-duplicate detection without a model: MinHash signatures over word 2-shingles
 * estimate Jaccard similarity; cosine for embedding vectors.
 */
const HASHES = 64;
const PRIME = 4294967311; // > 2^32, so (a*x + b) mod p spreads 32-bit hashes

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (words.length < 2) return new Set(words);
  return new Set(words.slice(1).map((w, i) => `${words[i]} ${w}`));
}

const COEFFS = Array.from({ length: HASHES }, (_, i) => [fnv1a(`a${i}`) | 1, fnv1a(`b${i}`)] as const);

export function minhashSignature(text: string): number[] {
  const hashes = [...shingles(text)].map(fnv1a);
  if (hashes.length === 0) return new Array<number>(HASHES).fill(-1);
  // BigInt keeps (a*x + b) exact; 64 hashes × a few dozen shingles per topic is cheap.
  return COEFFS.map(([a, b]) =>
    Math.min(...hashes.map((x) => Number((BigInt(a) * BigInt(x) + BigInt(b)) % BigInt(PRIME)))),
  );
}

export function jaccardEstimate(a: number[], b: number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] === b[i]) same += 1;
  return same / a.length;
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
