/**
 * A check repair, proven before anyone sees it: for each check the proof condemned, the model is
 * asked for a patch with the evidence; the patch's definitions replace the check's (spliced in the
 * sandbox, never run outside it); a reply that does not parse, defines something the check does
 * not have or changes nothing is refused with its reason and re-asked within the stage's limit.
 * Then the scenario's proof runs twice with the same gold, on the current checks and on the
 * proposed ones: PROVEN only when the proposed ones are VERIFIED (no-op 0, gold 1, every check
 * flips). A "fix" that makes a check trivially true fails the no-op part like any other.
 */
import { type Result, err, ok } from "../core/result";
import type { StepError } from "../core/run";
import { chatParsed, DEFAULT_MAX_REASKS, extractPythonBlock, type LlmClient } from "../llm";
import type { SandboxRunner } from "../sandbox";
import { type ProofInput, proveValidators } from "../scenarios/proof";
import type { ProofOutcome } from "../scenarios/scenario.schema";
import { verifyCheckFunc } from "../scenarios/stages/generate-check-func";
import { checkRepairMessages, diagnosisOf } from "./check-prompt";
import type { CheckChange, FailingCheck, RepairOutcome, ValidatorEvidence } from "./repair.schema";
import { gatherValidatorEvidence } from "./validator-evidence";

export type RepairSandbox = Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch" | "splice">;

export type RepairDeps = {
  llm: LlmClient;
  model: string;
  sandbox: RepairSandbox;
  /** Re-asks after a refused reply (the stage's limit; default 2). */
  maxReasks?: number;
  cacheSalt?: string;
};

/** A check of the proof input, with the validator it belongs to (for the saved change). */
export type RepairableCheck = ProofInput["checks"][number] & {
  validatorId: string;
  validatorVersionId: string;
};
export type CheckRepairInput = Omit<ProofInput, "checks"> & { task: string; checks: RepairableCheck[] };

type Patch = { code: string; replaced: string[]; summary: string };

/** Asks for one check's patch; the parser splices and verifies it (inside the call: only accepted replies are cached). */
export async function proposeCheckPatch(
  evidence: ValidatorEvidence,
  check: FailingCheck,
  deps: RepairDeps,
): Promise<Result<Patch, StepError>> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0,
      cacheSalt: deps.cacheSalt,
      purpose: `repair check ${check.position + 1}: ${check.item.slice(0, 60)}`,
      messages: checkRepairMessages(evidence, check),
    },
    async (r) => {
      const patch = extractPythonBlock(r.content);
      if (!patch.ok) return patch;
      const spliced = await deps.sandbox.splice({
        source: check.code,
        patch: patch.value,
        className: null,
        allowed: null,
      });
      // No sandbox to judge the reply: thrown, so the reply is recorded, not cached, and the step retries.
      if (!spliced.ok) throw new Error(`the sandbox could not read the patch: ${spliced.error.message}`);
      if (!spliced.value.ok) return err(spliced.value.refusal);
      const verified = await verifyCheckFunc(spliced.value.source, evidence.initialState, deps);
      if (!verified.ok) return verified;
      const fallback = `repaired check ${check.position + 1} (${check.reasons.map((x) => x.code).join(", ")})`;
      return ok({
        code: verified.value,
        replaced: spliced.value.replaced,
        summary: diagnosisOf(r.content, fallback),
      });
    },
    deps.maxReasks ?? DEFAULT_MAX_REASKS,
  );
  return reply.ok ? ok(reply.value.value) : reply;
}

/** The proof of the current checks and of the proposed ones, with the same gold. */
export async function proveCheckChanges(
  input: ProofInput,
  changes: Pick<CheckChange, "position" | "after">[],
  deps: { sandbox: RepairSandbox },
  before?: ProofOutcome,
): Promise<Result<RepairOutcome, StepError>> {
  let beforeOutcome = before;
  if (!beforeOutcome) {
    const current = await proveValidators(input, deps);
    if (!current.ok) return err(current.error);
    beforeOutcome = current.value;
  }
  const proposed = input.checks.map((c) => {
    const change = changes.find((x) => x.position === c.position);
    return change ? { ...c, code: change.after } : c;
  });
  const after = await proveValidators({ ...input, checks: proposed }, deps);
  if (!after.ok) return err(after.error);
  const proven = after.value.status === "VERIFIED";
  return ok({
    status: proven ? "PROVEN" : "FAILED",
    before: beforeOutcome,
    after: after.value,
    reasons: proven ? [] : after.value.reasons.map((r) => r.message),
  });
}

export type CheckRepair = {
  evidence: ValidatorEvidence;
  changes: CheckChange[];
  outcome: RepairOutcome;
  summary: string;
};

/**
 * Repairs every condemned check of one scenario as one proposal. Err only when the work could
 * not be done (sandbox down, endpoint failing, nothing to repair); a proposal that does not prove,
 * or a model that never sent a usable patch, is an ok FAILED proposal kept with its evidence.
 */
export async function repairScenarioChecks(
  input: CheckRepairInput,
  deps: RepairDeps,
): Promise<Result<CheckRepair, StepError>> {
  const before = await proveValidators(input, deps);
  if (!before.ok) return err(before.error);
  if (before.value.status === "VERIFIED")
    return err({
      code: "NOT_FAILING",
      message: "the scenario's proof passes: nothing to repair",
      retryable: false,
    });
  const evidence = await gatherValidatorEvidence(input, before.value, deps);
  if (!evidence.ok) return err(evidence.error);
  if (evidence.value.failing.length === 0)
    return err({
      code: "NOT_REPAIRABLE",
      message: `no check is at fault: ${before.value.reasons.map((r) => r.message).join("; ")}`,
      retryable: false,
    });
  const changes: CheckChange[] = [];
  const refusals: string[] = [];
  for (const failing of evidence.value.failing) {
    const check = input.checks.find((c) => c.position === failing.position);
    if (!check) continue;
    const patch = await proposeCheckPatch(evidence.value, failing, deps);
    if (!patch.ok) {
      if (patch.error.retryable || patch.error.code !== "PARSE_FAILED") return err(patch.error);
      refusals.push(`check ${failing.position + 1}: ${patch.error.message}`);
      continue;
    }
    changes.push({
      validatorId: check.validatorId,
      position: check.position,
      item: check.item,
      baseVersionId: check.validatorVersionId,
      before: check.code,
      after: patch.value.code,
      replaced: patch.value.replaced,
      summary: patch.value.summary,
    });
  }
  const summary = changes.map((c) => `check ${c.position + 1}: ${c.summary}`).join("; ") || "no usable patch";
  if (refusals.length > 0 || changes.length === 0) {
    // A check without a usable patch keeps the scenario failing: kept as evidence, never proven.
    return ok({
      evidence: evidence.value,
      changes,
      summary,
      outcome: { status: "FAILED", before: before.value, after: null, reasons: refusals },
    });
  }
  const outcome = await proveCheckChanges(input, changes, deps, before.value);
  if (!outcome.ok) return outcome;
  return ok({ evidence: evidence.value, changes, summary, outcome: outcome.value });
}
