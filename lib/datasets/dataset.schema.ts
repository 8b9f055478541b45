/** Dataset inputs and the stored JSON shapes (stats, changelog), parsed at every boundary. */
import { z } from "zod";
import { DifficultyOptionsSchema } from "../difficulty/estimators";

export const DatasetNameSchema = z
  .string()
  .trim()
  .min(1, "name is required")
  .max(80)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "use letters, digits, dot, dash or underscore (it names files and CLI arguments)",
  );

/** A band of pooled success rate (0–1, inclusive) a split is aimed at. */
export const DifficultyBandSchema = z
  .object({ min: z.coerce.number().min(0).max(1), max: z.coerce.number().min(0).max(1) })
  .refine((b) => b.min <= b.max, "the band's min must not exceed its max");
export type DifficultyBand = z.infer<typeof DifficultyBandSchema>;

export const DIFFICULTY_SORTS = ["key", "success_rate", "p_signal", "pass_at_k", "pass_hat_k"] as const;

/**
 * How difficulty shapes a version: the k and group size G of its figures, whether scenarios every
 * counted rollout solved (or none did) are left out, a success-rate band per split, and the order
 * the preview lists items in.
 */
export const DatasetDifficultySchema = DifficultyOptionsSchema.extend({
  excludeZeroSignal: z.boolean().default(false),
  trainBand: DifficultyBandSchema.optional(),
  testBand: DifficultyBandSchema.optional(),
  sort: z.enum(DIFFICULTY_SORTS).default("key"),
});
export type DatasetDifficulty = z.infer<typeof DatasetDifficultySchema>;

export const CreateDatasetVersionInputSchema = z.object({
  projectId: z.string().min(1),
  name: DatasetNameSchema,
  description: z.string().max(2000).optional(),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(42),
  testRatio: z.coerce.number().min(0).max(0.9).default(0.2),
  /** Restrict to these environments (ids or slugs); all accepted environments when omitted. */
  environments: z.array(z.string().min(1)).optional(),
  /** Scenario ids to leave out of this version. */
  excludeScenarioIds: z.array(z.string().min(1)).default([]),
  /** Environment id → the version to pin; default: the accepted version. */
  pins: z.record(z.string().min(1), z.string().min(1)).default({}),
  /**
   * A written reason lets in items whose pinned versions are not accepted and proven; they are
   * marked and the override is logged. Without it such items are left out (with their reason).
   */
  overrideReason: z.string().trim().max(2000).optional(),
  /** CLI `--allow-unverified`: an override with a fixed reason. */
  allowUnverified: z.boolean().default(false),
  difficulty: DatasetDifficultySchema.default(DatasetDifficultySchema.parse({})),
  /** Creating a dataset (not a new version of one): an existing name is a conflict, not an edit. */
  isNew: z.boolean().default(false),
  createdById: z.string().nullable().optional(),
});
export type CreateDatasetVersionInput = z.input<typeof CreateDatasetVersionInputSchema>;

const CountsSchema = z.object({ scenarios: z.number(), environments: z.number() });

export const DatasetStatsSchema = z.object({
  scenarios: z.number(),
  environments: z.number(),
  train: CountsSchema,
  test: CountsSchema,
  checks: z.object({ total: z.number(), meanPerScenario: z.number() }),
  taskWords: z.object({ mean: z.number(), min: z.number(), max: z.number() }),
  tools: z.object({ total: z.number(), meanPerEnvironment: z.number() }),
  byEnvironment: z.array(
    z.object({ environment: z.string(), split: z.enum(["TRAIN", "TEST"]), scenarios: z.number() }),
  ),
  byDomain: z.record(z.string(), z.number()),
});
export type DatasetStats = z.infer<typeof DatasetStatsSchema>;

export const DatasetChangelogSchema = z.object({
  previousVersion: z.number().nullable(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** Same scenario, different pinned environment or validator versions. */
  repinned: z.array(z.string()),
  /** Environments whose split side changed. */
  movedEnvironments: z.array(
    z.object({ environment: z.string(), from: z.enum(["TRAIN", "TEST"]), to: z.enum(["TRAIN", "TEST"]) }),
  ),
  seedChanged: z.boolean(),
});
export type DatasetChangelog = z.infer<typeof DatasetChangelogSchema>;
