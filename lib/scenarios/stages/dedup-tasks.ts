/**
 * Near-duplicate tasks within an environment (EnvScaler had no scenario dedup, §12.3 #24).
 * Lexical by default: MinHash over word 2-shingles of the normalised text estimates Jaccard
 * similarity; with an embedding model configured, cosine similarity of embeddings instead.
 * Greedy in index order against everything kept so far (existing scenarios first), so the result
 * is deterministic and a resumed run drops the same tasks.
 */
import { normalizeTask } from "../../environments/hash";
import type { LlmClient } from "../../llm";
import { cosine, jaccardEstimate, minhashSignature } from "../../pipeline/stages/similarity";
import { type Result, ok } from "../../core/result";
import type { StepError } from "../../core/run";

export type DedupConfig = {
  jaccardThreshold: number;
  embedding: { llm: LlmClient; model: string; threshold: number } | null;
};
export type DedupVerdict = { index: number; keep: boolean; duplicateOf: string | null; similarity: number };

type Vectorised = { id: string; vector: number[] };

export async function dedupTasks(
  candidates: { index: number; task: string }[],
  existing: { id: string; task: string }[],
  config: DedupConfig,
): Promise<Result<DedupVerdict[], StepError>> {
  const texts = [...existing.map((e) => e.task), ...candidates.map((c) => c.task)].map(normalizeTask);
  let vectors: number[][];
  let similar: (a: number[], b: number[]) => number;
  let threshold: number;
  if (config.embedding) {
    const embedded = await config.embedding.llm.embed(config.embedding.model, texts);
    if (!embedded.ok) return embedded;
    [vectors, similar, threshold] = [embedded.value, cosine, config.embedding.threshold];
  } else
    [vectors, similar, threshold] = [texts.map(minhashSignature), jaccardEstimate, config.jaccardThreshold];
  const kept: Vectorised[] = existing.map((e, i) => ({ id: e.id, vector: vectors[i] ?? [] }));
  return ok(
    candidates.map((c, i) => {
      const vector = vectors[existing.length + i] ?? [];
      let best: { id: string; similarity: number } = { id: "", similarity: 0 };
      for (const k of kept) {
        const s = similar(vector, k.vector);
        if (s > best.similarity) best = { id: k.id, similarity: s };
      }
      const keep = best.similarity < threshold;
      if (keep) kept.push({ id: `candidate:${c.index}`, vector });
      return {
        index: c.index,
        keep,
        duplicateOf: keep ? null : best.id,
        similarity: Math.round(best.similarity * 1000) / 1000,
      };
    }),
  );
}
