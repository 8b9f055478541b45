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
import {
  type ChatMessage,
  chatParsed,
  DEFAULT_MAX_REASKS,
  extractPythonBlock,
  type LlmClient,
  type Parser,
} from "../llm";
import type { SandboxRunner } from "../sandbox";
import { type ProofInput, proveValidators } from "../scenarios/proof";
import type { ProofOutcome } from "../scenarios/scenario.schema";
import { verifyCheckFunc } from "../scenarios/stages/generate-check-func";
import { type PassedNearMiss, strengthOf } from "../scenarios/near-miss-strength";
import { checkRepairMessages, chosenCheckOf, diagnosisOf, weakRepairMessages } from "./check-prompt";
import type {
  CheckChange,
  FailingCheck,
  PassedNearMissEvidence,
  RepairOutcome,
  ValidatorEvidence,
} from "./repair.schema";
import { gatherValidatorEvidence, traceGold } from "./validator-evidence";

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

/** A patch as a new version of the check it was made for. */
const changeOf = (check: RepairableCheck, patch: Patch): CheckChange => ({
  validatorId: check.validatorId,
  position: check.position,
  item: check.item,
  baseVersionId: check.validatorVersionId,
  before: check.code,
  after: patch.code,
  replaced: patch.replaced,
  summary: patch.summary,
});

/** Splices a reply's patch into a check's code and verifies it; the refusal (re-asked) otherwise. */
async function spliceCheckReply(
  content: string | null,
  code: string,
  initialState: ValidatorEvidence["initialState"],
  deps: RepairDeps,
): Promise<Result<Omit<Patch, "summary">, string>> {
  const patch = extractPythonBlock(content);
  if (!patch.ok) return patch;
  const spliced = await deps.sandbox.splice({
    source: code,
    patch: patch.value,
    className: null,
    allowed: null,
  });
  // No sandbox to judge the reply: thrown, so the reply is recorded, not cached, and the step retries.
  if (!spliced.ok) throw new Error(`the sandbox could not read the patch: ${spliced.error.message}`);
  if (!spliced.value.ok) return err(spliced.value.refusal);
  const verified = await verifyCheckFunc(spliced.value.source, initialState, deps);
  if (!verified.ok) return verified;
  return ok({ code: verified.value, replaced: spliced.value.replaced });
}

/** Asks for one check's patch; the parser splices and verifies it (inside the call: only accepted replies are cached). */
export async function proposeCheckPatch(
  evidence: ValidatorEvidence,
  check: FailingCheck,
  deps: RepairDeps,
): Promise<Result<Patch, StepError>> {
  return askForPatch(
    deps,
    `repair check ${check.position + 1}: ${check.item.slice(0, 60)}`,
    checkRepairMessages(evidence, check),
    async (r) => {
      const patch = await spliceCheckReply(r.content, check.code, evidence.initialState, deps);
      if (!patch.ok) return patch;
      const fallback = `repaired check ${check.position + 1} (${check.reasons.map((x) => x.code).join(", ")})`;
      return ok({ ...patch.value, summary: diagnosisOf(r.content, fallback) });
    },
  );
}

/** One repair question with the stage's re-asks; `parse` runs inside the call, so only accepted
 * replies are cached. */
async function askForPatch<T>(
  deps: RepairDeps,
  purpose: string,
  messages: ChatMessage[],
  parse: Parser<T>,
): Promise<Result<T, StepError>> {
  const reply = await chatParsed(
    deps.llm,
    { model: deps.model, temperature: 0, cacheSalt: deps.cacheSalt, purpose, messages },
    parse,
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

const refusal = (code: string, message: string): StepError => ({ code, message, retryable: false });

/**
 * The proof a repair starts from: the caller's, or one run now. Err when it cannot be run or when
 * `refuse` says this repair does not apply to it (nothing to repair, or the other kind of repair).
 */
async function startingProof(
  input: CheckRepairInput,
  deps: RepairDeps,
  proven: ProofOutcome | undefined,
  refuse: (proof: ProofOutcome) => StepError | null,
): Promise<Result<ProofOutcome, StepError>> {
  const before = proven ? ok(proven) : await proveValidators(input, deps);
  if (!before.ok) return err(before.error);
  const refused = refuse(before.value);
  return refused ? err(refused) : before;
}

/**
 * Repairs every condemned check of one scenario as one proposal. Err only when the work could
 * not be done (sandbox down, endpoint failing, nothing to repair); a proposal that does not prove,
 * or a model that never sent a usable patch, is an ok FAILED proposal kept with its evidence.
 */
export async function repairScenarioChecks(
  input: CheckRepairInput,
  deps: RepairDeps,
  proven?: ProofOutcome,
): Promise<Result<CheckRepair, StepError>> {
  const before = await startingProof(input, deps, proven, (p) =>
    p.status === "VERIFIED" ? refusal("NOT_FAILING", "the scenario's proof passes: nothing to repair") : null,
  );
  if (!before.ok) return err(before.error);
  const evidence = await gatherValidatorEvidence(input, before.value, deps);
  if (!evidence.ok) return err(evidence.error);
  if (evidence.value.failing.length === 0)
    return err(
      refusal(
        "NOT_REPAIRABLE",
        `no check is at fault: ${before.value.reasons.map((r) => r.message).join("; ")}`,
      ),
    );
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
    changes.push(changeOf(check, patch.value));
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

/** The near-misses a proof's checks gave full reward: a weak validator has at least one. */
export const passedNearMisses = (proof: ProofOutcome, input: ProofInput): PassedNearMiss[] =>
  strengthOf(proof.nearMiss, input.gold?.calls ?? [], input.checks.length).passed;

/** The weak evidence: each passing near-miss replayed in the sandbox for the final state it leaves. */
async function gatherWeakEvidence(
  input: CheckRepairInput,
  proof: ProofOutcome,
  passed: PassedNearMiss[],
  deps: RepairDeps,
): Promise<Result<ValidatorEvidence, StepError>> {
  const evidence = await gatherValidatorEvidence(input, proof, deps);
  if (!evidence.ok) return err(evidence.error);
  const weak: PassedNearMissEvidence[] = [];
  for (const nearMiss of passed) {
    const trace = await traceGold(
      { ...input, gold: { source: input.gold!.source, calls: nearMiss.calls } },
      deps,
    );
    if (!trace.ok) return err(trace.error);
    weak.push({ ...nearMiss, finalState: trace.value.finalState });
  }
  return ok({ ...evidence.value, failing: [], weak });
}

/** Asks which check to strengthen and how; the parser splices and verifies the patch into that check. */
export async function proposeWeakCheckPatch(
  evidence: ValidatorEvidence,
  checks: RepairableCheck[],
  deps: RepairDeps,
): Promise<Result<Patch & { position: number }, StepError>> {
  return askForPatch(
    deps,
    `strengthen a check: ${evidence.weak?.[0]?.description.slice(0, 60) ?? "weak validator"}`,
    weakRepairMessages(evidence, checks),
    async (r) => {
      const position = chosenCheckOf(
        r.content,
        checks.map((c) => c.position),
      );
      if (!position.ok) return position;
      const check = checks.find((c) => c.position === position.value)!;
      const patch = await spliceCheckReply(r.content, check.code, evidence.initialState, deps);
      if (!patch.ok) return patch;
      const fallback = `strengthened check ${position.value + 1} against a near-miss`;
      return ok({ ...patch.value, position: position.value, summary: diagnosisOf(r.content, fallback) });
    },
  );
}

/**
 * A weak validator's proposal is proven when its proof still verifies (no-op 0, gold 1, every check
 * flips) and no near-miss earns full reward any more — the ones that passed included.
 */
export async function proveWeakCheckChanges(
  input: ProofInput,
  changes: Pick<CheckChange, "position" | "after">[],
  deps: { sandbox: RepairSandbox },
  before: ProofOutcome,
): Promise<Result<RepairOutcome, StepError>> {
  const outcome = await proveCheckChanges(input, changes, deps, before);
  if (!outcome.ok || outcome.value.status !== "PROVEN" || !outcome.value.after) return outcome;
  const after = outcome.value.after;
  if (after.nearMiss.status !== "MEASURED")
    return ok({
      ...outcome.value,
      status: "FAILED",
      reasons: [`the near-misses were not measured: ${after.nearMiss.reason ?? after.nearMiss.status}`],
    });
  const still = passedNearMisses(after, input);
  if (still.length === 0) return outcome;
  return ok({
    ...outcome.value,
    status: "FAILED",
    reasons: still.map((n) => `the near-miss "${n.description}" still earns full reward`),
  });
}

/**
 * Strengthens a weak validator (its proof VERIFIED, a near-miss earning full reward) as one
 * proposal changing one check. Err when the work could not be done or there is nothing to repair;
 * a patch that does not prove, or no usable patch, is an ok FAILED proposal kept with its evidence.
 */
export async function repairWeakValidator(
  input: CheckRepairInput,
  deps: RepairDeps,
  proven?: ProofOutcome,
): Promise<Result<CheckRepair, StepError>> {
  const before = await startingProof(input, deps, proven, (p) =>
    p.status !== "VERIFIED"
      ? refusal("NOT_WEAK", "the scenario's proof fails: it is repaired as a failed proof")
      : passedNearMisses(p, input).length === 0
        ? refusal("NOT_FAILING", "the scenario's checks reject every near-miss: nothing to repair")
        : null,
  );
  if (!before.ok) return err(before.error);
  const passed = passedNearMisses(before.value, input);
  const evidence = await gatherWeakEvidence(input, before.value, passed, deps);
  if (!evidence.ok) return evidence;
  const patch = await proposeWeakCheckPatch(evidence.value, input.checks, deps);
  if (!patch.ok) {
    if (patch.error.retryable || patch.error.code !== "PARSE_FAILED") return err(patch.error);
    return ok({
      evidence: evidence.value,
      changes: [],
      summary: "no usable patch",
      outcome: { status: "FAILED", before: before.value, after: null, reasons: [patch.error.message] },
    });
  }
  const check = input.checks.find((c) => c.position === patch.value.position)!;
  const change = changeOf(check, patch.value);
  const outcome = await proveWeakCheckChanges(input, [change], deps, before.value);
  if (!outcome.ok) return outcome;
  return ok({
    evidence: evidence.value,
    changes: [change],
    summary: `check ${check.position + 1}: ${change.summary}`,
    outcome: outcome.value,
  });
}

/** A failed proof gets its condemned checks repaired; a verified but weak one gets a check strengthened. */
export async function repairScenario(
  input: CheckRepairInput,
  deps: RepairDeps,
): Promise<Result<CheckRepair, StepError>> {
  const before = await proveValidators(input, deps);
  if (!before.ok) return err(before.error);
  return before.value.status === "VERIFIED"
    ? repairWeakValidator(input, deps, before.value)
    : repairScenarioChecks(input, deps, before.value);
}
