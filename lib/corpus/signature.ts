/**
 * The similarity signature of one environment version, computed once when the version is written
 * (or, for versions older than this table, the first time a corpus map needs it) so the map never
 * re-reads code: a MinHash of its normalised code shingles, the exact set of its tool signatures
 * and a MinHash of that set, and the LSH band keys of both.
 */
import { parseTools } from "../environments/environment.schema";
import { normaliseCodeTokens, tokenShingles } from "./code-tokens";
import { bandKeys, minhash } from "./minhash";

/** 5-token shingles: long enough that two unrelated classes share few, short enough to survive edits. */
export const CODE_SHINGLE = 5;
export const CODE_HASHES = 64;
/**
 * 16 bands × 4 rows, and a candidate pair must share at least 2 of them (MIN_SHARED_BANDS): code
 * similarity 0.7 → candidate with probability 0.93, 0.8 → 1.00, 0.25 (two environments sharing a
 * helper method) → 0.002. One shared band would let in 6 % of the 0.25 pairs: at 10,000
 * environments that is tens of thousands of candidates to score.
 */
export const CODE_BANDS = 16;
export const TOOL_HASHES = 32;
/** 8 bands × 4 rows, at least 2 shared: tool-set similarity 0.8 → 0.90, 1 → 1, 0.25 → 0.0004. */
export const TOOL_BANDS = 8;
export const MIN_SHARED_BANDS = 2;
const CODE_TAG = 1;
const TOOL_TAG = 2;
/** Band keys at or above this are tool bands (bandKeys puts the tag in the high bits). */
export const TOOL_BAND_KEY_MIN = TOOL_TAG * 64 * 2 ** 32;

export type EnvironmentSignature = {
  codeMinhash: number[];
  toolMinhash: number[];
  /** Sorted `name(param,param)` strings, parameter names sorted: what a tool-set Jaccard compares. */
  toolSignatures: string[];
  /** Every band key of both signatures (code and tool bands are tagged apart). */
  bands: number[];
  tokenCount: number;
};

/** `book_flight(flight_id,seat)`: the tool's name and its parameter names, lower-cased and sorted. */
export function toolSignatures(tools: unknown): string[] {
  const out = new Set<string>();
  for (const tool of parseTools(tools)) {
    const params = Object.keys(tool.function.parameters.properties ?? {})
      .map((p) => p.toLowerCase())
      .sort();
    out.add(`${tool.function.name.toLowerCase()}(${params.join(",")})`);
  }
  return [...out].sort();
}

export function computeEnvironmentSignature(input: { source: string; tools: unknown }): EnvironmentSignature {
  const tokens = normaliseCodeTokens(input.source);
  const codeMinhash = minhash(tokenShingles(tokens, CODE_SHINGLE), CODE_HASHES);
  const signatures = toolSignatures(input.tools);
  const toolMinhash = minhash(signatures, TOOL_HASHES);
  // An environment without tools gets no tool bands: "no tools" is not a similarity.
  const bands = [
    ...(tokens.length ? bandKeys(codeMinhash, CODE_BANDS, CODE_TAG) : []),
    ...(signatures.length ? bandKeys(toolMinhash, TOOL_BANDS, TOOL_TAG) : []),
  ];
  return { codeMinhash, toolMinhash, toolSignatures: signatures, bands, tokenCount: tokens.length };
}

/** Bumped whenever the signature's computation changes: stored rows of another value are recomputed. */
export const SIGNATURE_ALGORITHM = 1;
