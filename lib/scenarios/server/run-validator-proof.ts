import "server-only";
/**
 * runValidatorProof: the domain function the proof job and the review studio's test bench call.
 * Finds a gold solution (stored gold calls, else a rollout that reached reward 1 on this code
 * version, else the model), proves the scenario's current validators against the environment's
 * current code, stores a ValidatorProof pinned to both versions, and moves the scenario: verified
 * ones to VERIFIED, the others to the review queue (IN_REVIEW) with the reasons — unless the code
 * or the checks changed while the proof ran (then only the proof row is stored).
 */
import { type Result, err, ok } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db, Prisma, ScenarioStatus } from "@/lib/db";
import type { LlmClient } from "@/lib/llm";
import { goldCallsFromSteps, TrajectoryStepSchema } from "@/lib/rollout";
import type { SandboxRunner } from "@/lib/sandbox";
import { z } from "zod";
import { requestGoldCalls } from "../gold-calls";
import { proveValidators } from "../proof";
import { isSamePins } from "../proof-status";
import {
  type GoldCall,
  type GoldSource,
  GoldSourceSchema,
  type ProofOutcome,
  ProofReasonSchema,
} from "../scenario.schema";
import { type ScenarioSubject, loadScenarioSubject } from "./load-proof-subject";
import { lockScenarioPins } from "./lock-scenario-pins";

export type ValidatorProofDeps = {
  sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch">;
  /** When set, a scenario without stored gold or a reward-1 rollout asks this model for one. */
  gold?: { llm: LlmClient; model: string };
};

/** What a proof step stores as its output (and a resumed proof run reads back). */
export const ProofSummarySchema = z.object({
  proofId: z.string(),
  scenarioId: z.string(),
  status: z.enum(["VERIFIED", "FAILED"]),
  reasons: z.array(ProofReasonSchema),
  goldSource: GoldSourceSchema.nullable(),
});
export type ProofSummary = z.infer<typeof ProofSummarySchema>;

type Gold = { source: GoldSource; calls: GoldCall[] } | null;

/** Stored gold calls, else a reward-1 rollout on this code version, else (with `deps.gold`) the model's. */
export async function findGold(
  db: Db,
  subject: ScenarioSubject,
  deps: ValidatorProofDeps,
): Promise<Result<Gold, StepError>> {
  if (subject.storedGold) return ok({ source: "scenario", calls: subject.storedGold });
  const best = await db.trajectory.findFirst({
    where: {
      scenarioId: subject.scenarioId,
      environmentVersionId: subject.environmentVersionId,
      reward: { gte: 1 },
    },
    orderBy: { createdAt: "desc" },
    select: { steps: true },
  });
  const steps = z.array(TrajectoryStepSchema).safeParse(best?.steps);
  if (steps.success && steps.data.length > 0)
    return ok({ source: "rollout", calls: goldCallsFromSteps(steps.data) });
  if (!deps.gold) return ok(null);
  const asked = await requestGoldCalls(
    {
      task: subject.task,
      initialState: subject.initialState,
      tools: subject.tools,
      introduction: subject.introduction,
    },
    deps.gold,
  );
  if (asked.ok) return ok({ source: "llm", calls: asked.value });
  // A transient endpoint failure is worth a retry; a model that cannot answer means "no gold".
  return asked.error.retryable ? err(asked.error) : ok(null);
}

export async function runValidatorProof(
  db: Db,
  input: { scenarioId: string; nearMisses?: boolean },
  deps: ValidatorProofDeps,
): Promise<Result<ProofSummary, StepError>> {
  const subject = await loadScenarioSubject(db, input.scenarioId);
  if (!subject)
    return err({
      code: "NOT_FOUND",
      message: `scenario ${input.scenarioId} (or its environment's code) not found`,
      retryable: false,
    });
  const gold = await findGold(db, subject, deps);
  if (!gold.ok) return gold;
  const outcome = await proveValidators(
    {
      source: subject.source,
      className: subject.className,
      initialState: subject.initialState,
      checks: subject.checks,
      gold: gold.value,
      tools: subject.tools,
      task: subject.task,
      nearMisses: input.nearMisses,
    },
    deps,
  );
  if (!outcome.ok) return err(outcome.error);
  const proofId = await storeProof(db, subject, outcome.value);
  return ok({
    proofId,
    scenarioId: subject.scenarioId,
    status: outcome.value.status,
    reasons: outcome.value.reasons,
    goldSource: gold.value?.source ?? null,
  });
}

/**
 * Stores the proof row for the versions it proved and, only while those are still the current
 * ones, the scenario's status. The check and the write hold the pins' row locks
 * (lock-scenario-pins.ts), so a save cannot slip in between. A proof of versions replaced while
 * it ran stays evidence for those versions only: the scenario keeps the STALE its save gave it.
 */
async function storeProof(db: Db, subject: ScenarioSubject, outcome: ProofOutcome): Promise<string> {
  const json = (v: unknown) => v as Prisma.InputJsonValue;
  const pins = {
    environmentVersionId: subject.environmentVersionId,
    validatorVersionIds: subject.checks.map((c) => c.validatorVersionId),
  };
  return db.$transaction(async (tx) => {
    const locked = await lockScenarioPins(tx, subject.scenarioId);
    const proof = await tx.validatorProof.create({
      data: {
        scenarioId: subject.scenarioId,
        ...pins,
        status: outcome.status,
        noop: json(outcome.noop),
        gold: json(outcome.gold),
        sensitivity: json(outcome.sensitivity),
        reasons: json(outcome.reasons),
        nearMiss: json(outcome.nearMiss),
      },
    });
    if (!locked || !isSamePins(locked, pins)) return proof.id;
    const current = await tx.scenario.findUniqueOrThrow({
      where: { id: subject.scenarioId },
      select: { status: true },
    });
    await tx.scenario.update({
      where: { id: subject.scenarioId },
      data: {
        proofStatus: outcome.status,
        proofReasons: json(outcome.reasons),
        status: nextStatus(current.status, outcome.status),
        // Leaving ACCEPTED keeps what was accepted (the current checks) for datasets and the queue.
        ...(current.status === "ACCEPTED" && outcome.status === "FAILED"
          ? { acceptedValidatorVersionIds: pins.validatorVersionIds }
          : {}),
      },
    });
    return proof.id;
  });
}

/** A reviewer's REJECTED is final; an ACCEPTED scenario whose proof fails goes back to review. */
function nextStatus(current: ScenarioStatus, proof: "VERIFIED" | "FAILED"): ScenarioStatus {
  if (current === "REJECTED") return current;
  if (proof === "FAILED") return "IN_REVIEW";
  return current === "ACCEPTED" ? current : "VERIFIED";
}
