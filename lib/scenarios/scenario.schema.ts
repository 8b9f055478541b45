/**
 * The scenarios domain's vocabulary: gold tool calls, checks, and the validator proof's outcome.
 * Proof outcomes are stored as JSON (ValidatorProof.noop/gold/sensitivity) and read back by the
 * review studio, so they are schemas, not ad-hoc objects.
 */
import { z } from "zod";
import { CheckResultSchema, JsonObjectSchema } from "../sandbox/sandbox.schema";

export const GoldCallSchema = z.object({ name: z.string().min(1), arguments: JsonObjectSchema.default({}) });
export type GoldCall = z.infer<typeof GoldCallSchema>;
export const GoldCallsSchema = z.array(GoldCallSchema);

/** One validator as the proof sees it: its checklist item and the pinned code version. */
export type ProofCheck = { position: number; item: string; code: string; validatorVersionId?: string };

export const GoldSourceSchema = z.enum(["scenario", "rollout", "llm"]);
export type GoldSource = z.infer<typeof GoldSourceSchema>;

export const ProofReasonCodeSchema = z.enum([
  "NO_CHECKS",
  "PASSES_WITHOUT_WORK",
  "CHECK_ERROR",
  "NO_GOLD",
  "GOLD_CRASHED",
  "FAILS_ON_GOLD",
  "NOT_SENSITIVE",
  "SANDBOX",
]);
export type ProofReasonCode = z.infer<typeof ProofReasonCodeSchema>;

export const ProofReasonSchema = z.object({
  code: ProofReasonCodeSchema,
  /** Checklist position the reason is about, when it is about one check. */
  position: z.number().int().nullable(),
  message: z.string(),
});
export type ProofReason = z.infer<typeof ProofReasonSchema>;

export const NoopPartSchema = z.object({ ran: z.boolean(), results: z.array(CheckResultSchema) });
export const GoldPartSchema = z.object({
  source: GoldSourceSchema.nullable(),
  calls: z.array(GoldCallSchema),
  /** Calls whose observation was an error (the environment refused them); not a failure by itself. */
  refusedCalls: z.array(z.number().int()),
  finalState: JsonObjectSchema.nullable(),
  results: z.array(CheckResultSchema),
  error: z.string().nullable(),
});
export const SensitivityPartSchema = z.object({
  ran: z.boolean(),
  checks: z.array(
    z.object({
      position: z.number().int(),
      onInitial: CheckResultSchema.nullable(),
      onGold: CheckResultSchema.nullable(),
      flips: z.boolean(),
    }),
  ),
});

export const ProofOutcomeSchema = z.object({
  status: z.enum(["VERIFIED", "FAILED"]),
  noop: NoopPartSchema,
  gold: GoldPartSchema,
  sensitivity: SensitivityPartSchema,
  reasons: z.array(ProofReasonSchema),
  /** Validator strength evidence (near-miss-proof.ts); measured only when the proof is VERIFIED. */
  nearMiss: z.lazy(() => NearMissPartSchema),
});
export type ProofOutcome = z.infer<typeof ProofOutcomeSchema>;
export type NoopPart = z.infer<typeof NoopPartSchema>;
export type GoldPart = z.infer<typeof GoldPartSchema>;
export type SensitivityPart = z.infer<typeof SensitivityPartSchema>;

/** One near-miss as stored: its edit of the gold calls (near-miss.ts rebuilds the calls) and a description. */
export const NearMissSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("drop"), callIndex: z.number().int(), description: z.string() }),
  z.object({ kind: z.literal("stop_early"), callIndex: z.number().int(), description: z.string() }),
  z.object({
    kind: z.literal("change_argument"),
    callIndex: z.number().int(),
    argument: z.string(),
    from: z.unknown(),
    to: z.unknown(),
    description: z.string(),
  }),
]);
export type NearMiss = z.infer<typeof NearMissSchema>;

/**
 * How a near-miss fared. JUDGED: the episode ended with a final state and the checks ran on it (what
 * a reward sees, refused calls included); `checks` are their results and `reward` the fraction that
 * passed. CRASHED: the replay or the checks could not finish (a timeout, a sandbox error), so no
 * final state was judged; it counts neither as rejected nor as passed. SAME_AS_GOLD: the final state
 * equals the gold final state, so no check on the state could tell them apart; not counted either.
 */
export const NearMissResultSchema = z.object({
  nearMiss: NearMissSchema,
  outcome: z.enum(["JUDGED", "CRASHED", "SAME_AS_GOLD"]),
  checks: z.array(CheckResultSchema),
  reward: z.number().nullable(),
  error: z.string().nullable(),
});
export type NearMissResult = z.infer<typeof NearMissResultSchema>;

/**
 * Near-miss evidence of a proof. MEASURED: `results` ran; NONE_DERIVABLE: no gold calls, or none that
 * changes the state; NOT_RUN: the proof failed, and strength is only measured against a verified one.
 */
export const NearMissPartSchema = z.object({
  status: z.enum(["MEASURED", "NONE_DERIVABLE", "NOT_RUN"]),
  reason: z.string().nullable(),
  /** The derivation's cap (near-miss.ts), kept with the evidence it bounded. */
  cap: z.number().int(),
  stateChangingCalls: z.array(z.number().int()),
  results: z.array(NearMissResultSchema),
});
export type NearMissPart = z.infer<typeof NearMissPartSchema>;
