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
});
export type ProofOutcome = z.infer<typeof ProofOutcomeSchema>;
export type NoopPart = z.infer<typeof NoopPartSchema>;
export type GoldPart = z.infer<typeof GoldPartSchema>;
export type SensitivityPart = z.infer<typeof SensitivityPartSchema>;
