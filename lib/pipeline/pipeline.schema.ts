/**
 * SkelBuilder artifacts and run configuration. Every stage output is one of these shapes, stored
 * as PipelineStep.output and parsed again when a later stage reads it (never cast).
 */
import { z } from "zod";

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const nonEmpty = z.string().trim().min(1);

/** Every SkelBuilder stage, in run order (the run page lists them so). */
export const STAGES = [
  "judge",
  "topic",
  "select",
  "state",
  "state_code",
  "operations",
  "methods",
  "assemble",
  "test_state",
  "quality",
] as const;
export type Stage = (typeof STAGES)[number];
/**
 * Where every environment's chain starts (after topic selection, or straight from a typed idea).
 * The chain is every stage from here on, in STAGES order; each step of it creates the next.
 */
export const CHAIN_START: Stage = "state";
const CHAIN = STAGES.slice(STAGES.indexOf(CHAIN_START));

/** The chain's next stage after `stage`, if it has one. */
export const nextChainStage = (stage: string): Stage | undefined => {
  const at = CHAIN.indexOf(stage as Stage);
  return at >= 0 ? CHAIN[at + 1] : undefined;
};

/** The chain's stages after `stage`, in order (none for a stage outside the chain). */
export const chainStagesAfter = (stage: string): Stage[] => {
  const at = CHAIN.indexOf(stage as Stage);
  return at >= 0 ? CHAIN.slice(at + 1) : [];
};

export const ModelsSchema = z.object({
  topic: nonEmpty,
  logic: nonEmpty,
  code: nonEmpty,
  testState: nonEmpty,
  tester: nonEmpty,
  judge: nonEmpty,
  embedding: nonEmpty.nullable(),
});
export type Models = z.infer<typeof ModelsSchema>;

/** The SkelBuilder stages that ask an LLM, by the stage name their prompts carry. */
export const LLM_STAGES = [
  "judge",
  "topic",
  "state",
  "state_code",
  "operations",
  "methods",
  "test_state",
  "tester",
  "judge_call",
] as const;

export const RunConfigSchema = z.object({
  models: ModelsSchema,
  minUsefulness: z.number().int().min(1).max(10).default(7),
  minModelability: z.number().int().min(1).max(10).default(7),
  /** Jaccard similarity (MinHash) or cosine similarity (embeddings) above which topics merge. */
  dedupThreshold: z.number().min(0).max(1).default(0.6),
  embeddingDedupThreshold: z.number().min(0).max(1).default(0.92),
  qualityRounds: z.number().int().min(1).max(200).default(30),
  minNotFailRate: z.number().min(0).max(1).default(0.85),
  maxTokens: z.number().int().positive().nullable().default(null),
  maxCostUsd: z.number().positive().nullable().default(null),
  prices: z.record(z.string(), z.object({ input: z.number(), output: z.number() })).default({}),
  /**
   * Re-asks after a reply the stage rejected (bad JSON, wrong shape, code failing the AST check),
   * per LLM stage: judge, topic, state, state_code, operations, methods, test_state, tester,
   * judge_call. Unlisted stages get 2. The rejection is shown to the model each time.
   */
  maxReasks: z.partialRecord(z.enum(LLM_STAGES), z.number().int().min(0).max(10)).default({}),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

export const RunInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ideas"), ideas: z.array(nonEmpty).min(1).max(1000) }),
  z.object({
    kind: z.literal("tasks"),
    tasks: z.array(nonEmpty).min(1).max(20_000),
    fileName: z.string().optional(),
  }),
]);
export type RunInput = z.infer<typeof RunInputSchema>;

export const JudgeOutputSchema = z.object({ stateful: z.boolean(), analysis: z.string() });
export type JudgeOutput = z.infer<typeof JudgeOutputSchema>;

export const TopicSchema = z.object({
  task: nonEmpty,
  summary: nonEmpty,
  introduction: nonEmpty,
  usefulness: z.number().int().min(1).max(10),
  modelability: z.number().int().min(1).max(10),
  analysis: z.string().default(""),
  /** The area the model placed the environment in (e-commerce, healthcare…); none for a typed idea. */
  domain: z.string().trim().max(80).optional(),
});
export type Topic = z.infer<typeof TopicSchema>;

export const EntitySchema = z.object({
  entity: nonEmpty,
  attributes: z.array(nonEmpty).min(1),
  description: nonEmpty,
});
export const StateSpaceSchema = z.object({
  analysis: z.string().default(""),
  /** The environment's area as the model names it; stored when the topic did not name one. */
  domain: z.string().trim().max(80).optional().catch(undefined),
  entities: z.array(EntitySchema).min(1),
  rules: z.array(nonEmpty),
});
export type StateSpace = z.infer<typeof StateSpaceSchema>;

export const StateCodeSchema = z.object({ className: z.string().regex(PY_IDENTIFIER), code: nonEmpty });
export type StateCode = z.infer<typeof StateCodeSchema>;

export const OperationSchema = z.object({
  name: z
    .string()
    .regex(PY_IDENTIFIER, "must be a Python identifier")
    .refine((n) => !n.startsWith("_"), "must be public (no leading underscore)"),
  description: nonEmpty,
  type: z.enum(["query", "state_change"]),
});
export type Operation = z.infer<typeof OperationSchema>;
export const OperationsSchema = z.object({
  analysis: z.string().default(""),
  operations: z.array(OperationSchema).min(1).max(40),
});

export const MethodSchema = z.object({ name: z.string(), code: nonEmpty });
export type Method = z.infer<typeof MethodSchema>;
export const MethodsSchema = z.object({ methods: z.array(MethodSchema).min(1) });

export const AssembledSchema = z.object({
  className: z.string(),
  source: nonEmpty,
  tools: z.array(z.unknown()),
  publicMethods: z.array(z.string()),
});
export type Assembled = z.infer<typeof AssembledSchema>;

export const TestStateSchema = z.object({ initialState: z.record(z.string(), z.unknown()) });

export const VerdictSchema = z.enum(["PASS", "WARNING", "FAIL"]);

export const ProbeSchema = z.object({
  index: z.number().int(),
  kind: z.enum(["positive", "negative"]),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  thought: z.string(),
  observation: z.unknown(),
  stateDiff: z.unknown(),
  verdict: VerdictSchema,
  rationale: z.string(),
});
export type Probe = z.infer<typeof ProbeSchema>;

export const QualityOutputSchema = z.object({
  probes: z.array(ProbeSchema),
  rounds: z.number().int(),
  passCount: z.number().int(),
  warningCount: z.number().int(),
  failCount: z.number().int(),
  passRate: z.number(),
  notFailRate: z.number(),
  threshold: z.number(),
  passed: z.boolean(),
  /** Rounds without a usable tester call or judge verdict (recorded, never silently dropped). */
  roundErrors: z.array(z.string()),
});
export type QualityOutput = z.infer<typeof QualityOutputSchema>;
