/**
 * Topic selection (spec §2.5, improved): threshold on both scores, then near-duplicate clustering —
 * cosine similarity over embeddings when an embeddings model is configured, otherwise Jaccard
 * similarity estimated with MinHash over word shingles. Single-link clusters (union-find) replace
 * EnvScaler's KMeans with a placeholder k; each cluster keeps its best-scoring member.
 */
import { ok } from "../../core/result";
import type { Topic } from "../pipeline.schema";
import type { StageDeps, StageResult } from "./deps";
import { cosine, jaccardEstimate, minhashSignature } from "./similarity";

export type SelectInput = {
  topics: { key: string; topic: Topic }[];
  minUsefulness: number;
  minModelability: number;
  dedupThreshold: number;
  embeddingDedupThreshold: number;
};

export type SelectedTopic = {
  key: string;
  topic: Topic;
  passedThreshold: boolean;
  clusterKey: string | null;
  kept: boolean;
};
export type SelectOutput = {
  method: "embeddings" | "minhash";
  topics: SelectedTopic[];
  clusters: { clusterKey: string; members: string[]; kept: string }[];
};

const topicText = (t: Topic) => `${t.summary}: ${t.introduction}`;

function clusterIndices(n: number, similar: (i: number, j: number) => boolean): number[] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i] ?? i)));
  for (let i = 0; i < n; i += 1)
    for (let j = i + 1; j < n; j += 1) if (similar(i, j)) parent[find(j)] = find(i);
  return parent.map((_, i) => find(i));
}

const better = (a: Topic, b: Topic) => a.modelability - b.modelability || a.usefulness - b.usefulness;

export async function selectTopics(input: SelectInput, deps: StageDeps): StageResult<SelectOutput> {
  const passing = input.topics.filter(
    ({ topic }) => topic.usefulness >= input.minUsefulness && topic.modelability >= input.minModelability,
  );
  let method: SelectOutput["method"] = "minhash";
  let similar: (i: number, j: number) => boolean;
  if (deps.models.embedding && passing.length > 1) {
    const vectors = await deps.llm.embed(
      deps.models.embedding,
      passing.map(({ topic }) => topicText(topic)),
    );
    if (!vectors.ok) return vectors;
    method = "embeddings";
    similar = (i, j) =>
      cosine(vectors.value[i] ?? [], vectors.value[j] ?? []) >= input.embeddingDedupThreshold;
  } else {
    const signatures = passing.map(({ topic }) => minhashSignature(topicText(topic)));
    // Identical labels are always duplicates (EnvScaler's exact-summary dedup), whatever the text says.
    const labels = passing.map(({ topic }) => topic.summary.trim().toLowerCase());
    similar = (i, j) =>
      labels[i] === labels[j] ||
      jaccardEstimate(signatures[i] ?? [], signatures[j] ?? []) >= input.dedupThreshold;
  }
  const roots = clusterIndices(passing.length, similar);
  const clusters = new Map<number, number[]>();
  roots.forEach((root, i) => clusters.set(root, [...(clusters.get(root) ?? []), i]));
  const keptKeys = new Set<string>();
  const clusterOf = new Map<string, string>();
  const clusterList: SelectOutput["clusters"] = [];
  for (const members of clusters.values()) {
    const best = members.reduce((a, b) => (better(passing[b]!.topic, passing[a]!.topic) > 0 ? b : a));
    const clusterKey = passing[best]!.key;
    keptKeys.add(clusterKey);
    for (const m of members) clusterOf.set(passing[m]!.key, clusterKey);
    clusterList.push({ clusterKey, members: members.map((m) => passing[m]!.key), kept: clusterKey });
  }
  const topics = input.topics.map(({ key, topic }) => ({
    key,
    topic,
    passedThreshold: clusterOf.has(key),
    clusterKey: clusterOf.get(key) ?? null,
    kept: keptKeys.has(key),
  }));
  return ok({ method, topics, clusters: clusterList });
}
