import "server-only";
/**
 * proposeScenarioRepair: a repair proposal for one scenario whose proof failed on its checks, or
 * whose checks are a weak validator (proof VERIFIED, a near-miss earning full reward). The item must
 * be failing or weak for exactly its current versions (checked before any LLM request); the
 * proposal is made and proven by the pure core (lib/repair/repair-checks.ts) and stored, PROVEN or
 * FAILED, with its evidence and both proofs, naming the versions it was made against.
 */
import { AppError } from "@/lib/core/errors";
import { type Result, err, ok } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db, Prisma } from "@/lib/db";
import { loadScenarioSubject } from "@/lib/scenarios/server/load-proof-subject";
import { isWeakValidator } from "@/lib/scenarios/near-miss-strength";
import { findPinnedStrength } from "@/lib/scenarios/server/find-weak-validators";
import { findPinnedProofStatus } from "@/lib/scenarios/server/lock-scenario-pins";
import { findGold } from "@/lib/scenarios/server/run-validator-proof";
import { z } from "zod";
import { type RepairDeps, repairScenario } from "../repair-checks";

export const ProposalSummarySchema = z.object({
  proposalId: z.string(),
  /** Null for an environment-code repair (then `environmentId` names the environment). */
  scenarioId: z.string().nullable(),
  environmentId: z.string().optional(),
  status: z.enum(["PROVEN", "FAILED"]),
  summary: z.string(),
});
export type ProposalSummary = z.infer<typeof ProposalSummarySchema>;

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * Why this scenario cannot get a check repair, or null. Cheap (no sandbox, no LLM): the CLI and
 * the queue ask it before anything is spent.
 */
export async function repairRefusal(db: Db, scenarioId: string): Promise<string | null> {
  const subject = await loadScenarioSubject(db, scenarioId);
  if (!subject) return `there is no scenario with the id "${scenarioId}"`;
  const pins = {
    environmentVersionId: subject.environmentVersionId,
    validatorVersionIds: subject.checks.map((c) => c.validatorVersionId),
  };
  const status = await findPinnedProofStatus(db, scenarioId, pins);
  if (status === "VERIFIED") {
    const strength = await findPinnedStrength(db, scenarioId, pins);
    if (isWeakValidator(strength)) return null;
    return strength?.status === "MEASURED"
      ? "its proof passes: nothing to repair (its checks reject every near-miss)"
      : "its proof passes: nothing to repair (its strength is not measured: prove its validators to measure it)";
  }
  if (status !== "FAILED") return `its proof is ${status.toLowerCase()}: prove its current checks first`;
  return null;
}

export async function proposeScenarioRepair(
  db: Db,
  input: { scenarioId: string; runId?: string | null },
  deps: RepairDeps,
): Promise<Result<ProposalSummary, StepError>> {
  const refusal = await repairRefusal(db, input.scenarioId);
  if (refusal)
    return err({
      code: "NOT_FAILING",
      message: `Scenario ${input.scenarioId}: ${refusal}.`,
      retryable: false,
    });
  const subject = await loadScenarioSubject(db, input.scenarioId);
  if (!subject) return err({ code: "NOT_FOUND", message: "the scenario was deleted", retryable: false });
  // Stored gold or a reward-1 rollout only: a repair never spends tokens on a gold solution.
  const gold = await findGold(db, subject, { sandbox: deps.sandbox });
  if (!gold.ok) return gold;
  if (!gold.value)
    return err({
      code: "NOT_REPAIRABLE",
      message: "no gold solution to prove a repair against",
      retryable: false,
    });
  const repair = await repairScenario(
    {
      source: subject.source,
      className: subject.className,
      initialState: subject.initialState,
      task: subject.task,
      gold: gold.value,
      checks: subject.checks,
      // The same near-misses as the proof that flagged it: they are derived from the tool schemas too.
      tools: subject.tools,
    },
    deps,
  );
  if (!repair.ok) return repair;
  const r = repair.value;
  const row = await db.repairProposal.create({
    data: {
      projectId: subject.projectId,
      kind: "VALIDATOR",
      status: r.outcome.status,
      environmentId: subject.environmentId,
      scenarioId: subject.scenarioId,
      runId: input.runId ?? null,
      environmentVersionId: subject.environmentVersionId,
      validatorVersionIds: subject.checks.map((c) => c.validatorVersionId),
      changes: json(r.changes),
      evidence: json(r.evidence),
      proofBefore: json(r.outcome.before),
      proofAfter: json(r.outcome.after),
      reasons: json(r.outcome.reasons),
      summary: r.summary,
      model: deps.model,
    },
  });
  return ok({
    proposalId: row.id,
    scenarioId: subject.scenarioId,
    status: r.outcome.status,
    summary: r.summary,
  });
}

/** For a request that must not proceed (the queue's "repair" button): the refusal as an AppError. */
export async function assertRepairable(db: Db, scenarioId: string) {
  const refusal = await repairRefusal(db, scenarioId);
  if (refusal)
    throw new AppError(
      refusal.startsWith("there is no") ? "NOT_FOUND" : "CONFLICT",
      `Cannot repair: ${refusal}.`,
    );
}
