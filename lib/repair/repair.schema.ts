/**
 * The repair domain's vocabulary: the evidence a model is shown for a failing item, the changes a
 * proposal makes, and what is stored and shown about it. Stored as JSON on RepairProposal and read
 * back by the review queue, so they are schemas, not ad-hoc objects.
 */
import { z } from "zod";
import { CheckResultSchema, JsonObjectSchema, StateDiffSchema, ToolSchema } from "../sandbox/sandbox.schema";
import { GoldCallSchema, ProofOutcomeSchema, ProofReasonSchema } from "../scenarios/scenario.schema";

/** One gold call as replayed for the evidence: what the environment answered. */
export const GoldStepSchema = GoldCallSchema.extend({ observation: z.unknown(), isError: z.boolean() });
export type GoldStep = z.infer<typeof GoldStepSchema>;

/** A check the proof condemned: which parts failed, and what it returned on which state. */
export const FailingCheckSchema = z.object({
  position: z.number().int(),
  item: z.string(),
  code: z.string(),
  reasons: z.array(ProofReasonSchema),
  onInitial: CheckResultSchema.nullable(),
  onGold: CheckResultSchema.nullable(),
});
export type FailingCheck = z.infer<typeof FailingCheckSchema>;

/** A near-miss of the gold calls that a weak validator's checks gave full reward, with the state it left. */
export const PassedNearMissEvidenceSchema = z.object({
  kind: z.string(),
  description: z.string(),
  calls: z.array(GoldCallSchema),
  finalState: JsonObjectSchema.nullable(),
});
export type PassedNearMissEvidence = z.infer<typeof PassedNearMissEvidenceSchema>;

export const ValidatorEvidenceSchema = z.object({
  task: z.string(),
  initialState: JsonObjectSchema,
  gold: z.array(GoldStepSchema),
  goldFinalState: JsonObjectSchema.nullable(),
  stateDiff: StateDiffSchema.nullable(),
  failing: z.array(FailingCheckSchema),
  /** Set for a weak validator (its proof holds): the near-misses its checks accept. */
  weak: z.array(PassedNearMissEvidenceSchema).optional(),
});
export type ValidatorEvidence = z.infer<typeof ValidatorEvidenceSchema>;

/** One check a proposal changes: the version it replaces and the code it puts in its place. */
export const CheckChangeSchema = z.object({
  validatorId: z.string(),
  position: z.number().int(),
  item: z.string(),
  baseVersionId: z.string(),
  before: z.string(),
  after: z.string(),
  /** The definitions the patch replaced (python/splice.py). */
  replaced: z.array(z.string()),
  /** What the model said it fixed. */
  summary: z.string(),
});
export type CheckChange = z.infer<typeof CheckChangeSchema>;
export const CheckChangesSchema = z.array(CheckChangeSchema);

export const RepairOutcomeSchema = z.object({
  status: z.enum(["PROVEN", "FAILED"]),
  before: ProofOutcomeSchema.nullable(),
  after: ProofOutcomeSchema.nullable(),
  reasons: z.array(z.string()),
});
export type RepairOutcome = z.infer<typeof RepairOutcomeSchema>;

/** Why a proof reason points at the check rather than at the environment or the gold. */
export const CHECK_REASON_CODES = [
  "PASSES_WITHOUT_WORK",
  "CHECK_ERROR",
  "FAILS_ON_GOLD",
  "NOT_SENSITIVE",
] as const;

/** A quality probe the judge (or a reviewer) failed: the call, what it did, and why it is wrong. */
export const FailingProbeSchema = z.object({
  /** The stored probe (null when the probe was not stored, e.g. in a unit test). */
  probeId: z.string().nullable().default(null),
  toolName: z.string(),
  kind: z.string(),
  arguments: JsonObjectSchema,
  observation: z.unknown(),
  stateDiff: z.unknown(),
  rationale: z.string(),
});
export type FailingProbe = z.input<typeof FailingProbeSchema>;

/** What an environment repair's model was shown: the condemned probes, on the quality check's test state. */
export const EnvironmentEvidenceSchema = z.object({
  qualityCheckId: z.string(),
  introduction: z.string(),
  rules: z.array(z.string()),
  testState: JsonObjectSchema,
  probes: z.array(FailingProbeSchema),
  /** The scenarios verified on the current code, re-proven against the changed code. */
  siblings: z.array(z.object({ scenarioId: z.string(), name: z.string() })),
});
export type EnvironmentEvidence = z.infer<typeof EnvironmentEvidenceSchema>;

/** The environment's code a proposal replaces and the code (with its tools) it puts in its place. */
export const EnvironmentChangeSchema = z.object({
  baseVersionId: z.string(),
  className: z.string(),
  before: z.string(),
  after: z.string(),
  /** The methods the patch replaced (python/splice.py). */
  replaced: z.array(z.string()),
  /** The tools of the changed code, as the sandbox extracted them. */
  tools: z.array(ToolSchema),
  summary: z.string(),
});
export type EnvironmentChange = z.infer<typeof EnvironmentChangeSchema>;

/** A failing probe's call re-run on the changed code and graded again (CRASHED: the call raised). */
export const RerunProbeSchema = z.object({
  toolName: z.string(),
  kind: z.string(),
  arguments: JsonObjectSchema,
  observation: z.unknown(),
  stateDiff: z.unknown(),
  verdict: z.enum(["PASS", "WARNING", "FAIL", "CRASHED"]),
  rationale: z.string(),
});
export type RerunProbe = z.infer<typeof RerunProbeSchema>;

/** A sibling scenario's proof against the changed code. */
export const SiblingProofSchema = z.object({
  name: z.string(),
  status: z.enum(["VERIFIED", "FAILED"]),
  reasons: z.array(z.string()),
});
export type SiblingProof = z.infer<typeof SiblingProofSchema>;

/**
 * An environment repair's proof, stored as proofBefore (the failing probes as the quality check
 * recorded them; no siblings) and proofAfter (the probes re-run and re-judged on the changed code,
 * and the sibling scenarios re-proven; null when no usable patch came).
 */
export const EnvironmentProofSchema = z.object({
  probes: z.array(RerunProbeSchema),
  siblings: z.array(SiblingProofSchema),
});
export type EnvironmentProof = z.infer<typeof EnvironmentProofSchema>;
