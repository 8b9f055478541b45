/** The corpus map's inputs and answer (the page and the actions parse through these). */
import { z } from "zod";
import type { CountRow } from "./splits";

export const CLUSTER_PAGE_SIZE = 10;
export const LEAK_PAGE_SIZE = 20;
export const COVERAGE_LIST_SIZE = 20;

/** The whole corpus (current versions of environments not rejected) or one dataset version's pins. */
export type CorpusScope =
  { kind: "corpus"; projectId: string } | { kind: "dataset"; datasetVersionId: string };

export const CorpusMapQuerySchema = z.object({
  dataset: z.string().min(1).max(64).optional(),
  clusters: z.coerce.number().int().min(1).max(100_000).default(1),
  leaks: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type CorpusMapQuery = z.infer<typeof CorpusMapQuerySchema>;

const id = z.string().min(1).max(64);
/** Keep one environment of a cluster; reject the others (as seen: their current versions) as its duplicates. */
export const MergeDuplicatesInputSchema = z
  .object({
    keep: z.object({ environmentId: id, versionId: id }),
    reject: z
      .array(z.object({ environmentId: id, versionId: id }))
      .min(1)
      .max(200),
    reason: z.string().trim().max(2000).default(""),
  })
  .refine((m) => !m.reject.some((r) => r.environmentId === m.keep.environmentId), {
    message: "the kept environment cannot also be rejected",
    path: ["reject"],
  })
  .refine((m) => new Set(m.reject.map((r) => r.environmentId)).size === m.reject.length, {
    message: "an environment is listed twice",
    path: ["reject"],
  });
export type MergeDuplicatesInput = z.infer<typeof MergeDuplicatesInputSchema>;

/** "Not duplicates": every pair of these environment versions leaves the map. */
export const DismissDuplicatesInputSchema = z.object({
  versionIds: z.array(id).min(2).max(200),
  reason: z.string().trim().max(2000).default(""),
});
export type DismissDuplicatesInput = z.infer<typeof DismissDuplicatesInputSchema>;

export type ClusterMember = {
  environmentId: string;
  versionId: string;
  slug: string;
  name: string;
  domain: string;
  status: string;
  version: number;
  toolCount: number;
  scenarioCount: number;
};
export type ClusterView = {
  members: ClusterMember[];
  pairs: number;
  maxCodeSimilarity: number;
  maxToolSimilarity: number;
};
export type DuplicatesView = {
  clusters: ClusterView[];
  clusterCount: number;
  /** Environments a merge of every cluster would reject (members minus one per cluster). */
  redundant: number;
  page: number;
  pageCount: number;
};
export type CoverageView = {
  tools: number;
  covered: number;
  environments: number;
  /** Environments by share of tools on a proven gold path. */
  byShare: CountRow[];
  /** Environments with the most untested tools, most first. */
  leastCovered: { environmentId: string; slug: string; tools: number; untested: string[] }[];
};
export type LeakRow = {
  scenarioId: string;
  externalId: string;
  environmentSlug: string;
  task: string;
  leaks: { call: string; path: string; value: string }[];
};
export type LeaksView = { rows: LeakRow[]; total: number; scanned: number; page: number; pageCount: number };
export type SplitsView = {
  scenarios: number;
  byDomain: CountRow[];
  byToolCount: CountRow[];
  /** Null until scenario difficulty is available (see find-difficulty-split.ts). */
  byDifficulty: CountRow[];
};
export type CorpusMap = {
  scope: { kind: "corpus" } | { kind: "dataset"; datasetVersionId: string; label: string };
  environments: number;
  duplicates: DuplicatesView;
  coverage: CoverageView;
  leaks: LeaksView;
  splits: SplitsView;
};
