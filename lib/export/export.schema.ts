/**
 * What every exporter reads: a dataset version's environments (few, held in memory) and its
 * scenarios (many, streamed in batches). Built by lib/export/server from the database, or by the
 * benchmark and tests directly; the writers never see Prisma.
 */
import type { ExportFormat } from "../db/generated/enums";
import type { ChatMessage } from "../llm/llm.schema";
import type { ExportDifficulty } from "./difficulty";

/** A stored export format; each has one descriptor in formats/registry.ts. */
export type ExportFormatName = ExportFormat;

export type ExportEnvironment = {
  /** The EnvScaler env_id: the environment's slug, unique within a project. */
  envId: string;
  name: string;
  description: string;
  domain: string;
  className: string;
  source: string;
  sourceHash: string;
  version: number;
  tools: OpenAiTool[];
  stateSchema: unknown;
  rules: unknown;
  operations: unknown;
  metadata: Record<string, unknown>;
};

export type OpenAiTool = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

export type ExportCheck = { checkItem: string; code: string; validatorVersion: number };

export type ExportTrajectory = {
  id: string;
  model: string;
  mode: string;
  reward: number;
  /** The agent's chat as the rollout stored it (system, user, assistant with tool calls, tool). */
  messages: ChatMessage[];
};

export type ExportScenario = {
  envId: string;
  taskId: string;
  split: "TRAIN" | "TEST";
  task: string;
  initialState: Record<string, unknown>;
  checklist: string[];
  checks: ExportCheck[];
  goldCalls: unknown;
  /** Only filled for trajectory formats (OpenAI, LlamaFactory): those that pass the SFT filter. */
  trajectories: ExportTrajectory[];
  /** The version's frozen difficulty for this item (./difficulty.ts); absent on older versions. */
  difficulty?: ExportDifficulty | null;
  /**
   * Validator strength as the dataset version recorded it (exported as `near_miss_strength`): null when
   * its proof measured none; undefined for versions made before strength was recorded, whose exports
   * leave the key out so they stay byte-identical.
   */
  nearMissStrength?: ExportNearMissStrength | null;
};

/** Near-misses of the gold calls the checks rejected (reward < 1), of those judged, and the ones that passed. */
export type ExportNearMissStrength = {
  rejected: number;
  total: number;
  passed: { kind: string; description: string; calls: unknown }[];
};

/** The dataset fields an export's own metadata file repeats (not the writers' flags). */
export function datasetMetadataOf(info: ExportDatasetInfo): Omit<ExportDatasetInfo, "hasNearMissStrength"> {
  const { name, version, description, seed, testRatio, createdAt, stats } = info;
  return { name, version, description, seed, testRatio, createdAt, stats };
}

/** `{near_miss_strength}` for a row or metadata object, or nothing for a version without it. */
export const nearMissEntry = (s: ExportScenario) =>
  s.nearMissStrength === undefined ? {} : { near_miss_strength: s.nearMissStrength };

export type ExportDatasetInfo = {
  name: string;
  version: number;
  description: string;
  seed: number;
  testRatio: number;
  createdAt: string;
  stats: unknown;
  /** Its items carry validator strength (versions made before it was recorded do not). */
  hasNearMissStrength?: boolean;
};

export type ExportInput = {
  dataset: ExportDatasetInfo;
  environments: ExportEnvironment[];
  scenarios: AsyncIterable<ExportScenario>;
  /**
   * The version froze difficulty figures for its items: columnar formats (verl parquet, the HF
   * card's features) declare the `difficulty` column only then, so older versions keep their bytes.
   */
  withDifficulty?: boolean;
  /** Called after each scenario with the count so far (jobs throttle their DB updates). */
  onProgress?: (processed: number) => void | Promise<void>;
  signal?: AbortSignal;
};

export type ExportSummary = { files: string[]; scenarios: number; rows: number; bytes: number };
