/**
 * The repair domain's vocabulary: the evidence a model is shown for a failing item, the changes a
 * proposal makes, and what is stored and shown about it. Stored as JSON on RepairProposal and read
 * back by the review queue, so they are schemas, not ad-hoc objects.
 */
import { z } from "zod";
import { CheckResultSchema, JsonObjectSchema, StateDiffSchema } from "../sandbox/sandbox.schema";
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
