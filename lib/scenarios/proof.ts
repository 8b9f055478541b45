/**
 * Validator proof: evidence that a scenario's check functions are right, not just that they run.
 * EnvScaler never validated its checks (spec §12.3 #25): a check that already passes on the
 * initial state rewards doing nothing, and one that fails after a correct solution caps every
 * trajectory's reward. Three tests, all in the sandbox:
 *  - no-op: checks on the untouched initial state must all fail;
 *  - gold: after replaying a gold tool-call sequence, checks must all pass;
 *  - sensitivity: re-run outside the episode (runChecks on the recorded states), each check must
 *    flip from false on the initial state to true on the gold final state.
 * Verified only when all three hold; otherwise every reason is listed for the review queue.
 * A verified proof then measures validator strength: near-misses of the gold calls, each replayed
 * in its own episode (near-miss-proof.ts), should not earn full reward.
 */
import { type Result, err, ok } from "../core/result";
import type { CheckResult, Episode, JsonObject, SandboxError, SandboxRunner, Tool } from "../sandbox";
import { nearMissNotRun, runNearMisses } from "./near-miss-proof";
import type {
  GoldCall,
  GoldPart,
  GoldSource,
  NoopPart,
  ProofCheck,
  ProofOutcome,
  ProofReason,
  SensitivityPart,
} from "./scenario.schema";

export type ProofDeps = { sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch"> };

export type ProofInput = {
  source: string;
  className: string;
  initialState: JsonObject;
  checks: ProofCheck[];
  gold: { source: GoldSource; calls: GoldCall[] } | null;
  /** For near-miss derivation: enum values come from the tool schemas, task-stated strings from the task. */
  tools?: Tool[];
  task?: string;
  /** False: the proof skips the near-misses (strength NOT_RUN). Default true. */
  nearMisses?: boolean;
};

const NO_GOLD_NEAR_MISS = nearMissNotRun(
  "the scenario has no gold calls to derive them from",
  "NONE_DERIVABLE",
);
const FAILED_NEAR_MISS = nearMissNotRun("the proof failed; strength is measured against a verified proof");
const SKIPPED_NEAR_MISS = nearMissNotRun("skipped by this proof; prove the validators again to measure");

const passed = (r: CheckResult | undefined) => r !== undefined && "passed" in r && r.passed;
const failedCleanly = (r: CheckResult | undefined) => r !== undefined && "passed" in r && !r.passed;
const errorOf = (r: CheckResult | undefined) => (r && "error" in r ? r.error : null);

/** Runs the proof. Err only when the sandbox itself is unavailable (worth retrying later). */
export async function proveValidators(
  input: ProofInput,
  deps: ProofDeps,
): Promise<Result<ProofOutcome, SandboxError>> {
  const codes = input.checks.map((c) => c.code);
  const emptyGold: GoldPart = {
    source: input.gold?.source ?? null,
    calls: input.gold?.calls ?? [],
    refusedCalls: [],
    finalState: null,
    results: [],
    error: null,
  };
  if (codes.length === 0) {
    const reasons: ProofReason[] = [
      {
        code: "NO_CHECKS",
        position: null,
        message: "the scenario has no check functions, so no reward can be computed",
      },
    ];
    return ok({
      status: "FAILED",
      noop: { ran: false, results: [] },
      gold: emptyGold,
      sensitivity: { ran: false, checks: [] },
      reasons,
      nearMiss: input.gold ? FAILED_NEAR_MISS : NO_GOLD_NEAR_MISS,
    });
  }
  const loaded = await deps.sandbox.load({
    source: input.source,
    className: input.className,
    initialState: input.initialState,
  });
  if (!loaded.ok) return loadFailure(loaded.error, emptyGold);
  const episode = loaded.value;
  let noop: NoopPart;
  let gold: GoldReplay;
  let initial: JsonObject;
  try {
    const state = await episode.state();
    if (!state.ok) return sandboxFailure(state.error, emptyGold);
    initial = state.value;
    const noopChecks = await episode.check(codes);
    if (!noopChecks.ok) return sandboxFailure(noopChecks.error, emptyGold);
    noop = { ran: true, results: noopChecks.value };
    gold = input.gold ? await replayGold(episode, input.gold, codes) : { part: emptyGold, changed: [] };
  } finally {
    await episode.close();
  }
  const sensitivity = await measureSensitivity(deps, codes, initial, gold.part.finalState);
  if (!sensitivity.ok) return sensitivity;
  const concluded = conclude(input, noop, gold.part, sensitivity.value);
  const nearMiss = await measureStrength(input, concluded, codes, gold, deps);
  if (!nearMiss.ok) return nearMiss;
  return ok({ ...concluded, nearMiss: nearMiss.value });
}

async function measureStrength(
  input: ProofInput,
  concluded: Omit<ProofOutcome, "nearMiss">,
  codes: string[],
  gold: GoldReplay,
  deps: ProofDeps,
) {
  if (!input.gold || input.gold.calls.length === 0) return ok(NO_GOLD_NEAR_MISS);
  if (concluded.status !== "VERIFIED" || !gold.part.finalState) return ok(FAILED_NEAR_MISS);
  if (input.nearMisses === false) return ok(SKIPPED_NEAR_MISS);
  return runNearMisses(
    {
      source: input.source,
      className: input.className,
      initialState: input.initialState,
      codes,
      goldCalls: input.gold.calls,
      stateChanging: gold.changed,
      goldFinalState: gold.part.finalState,
      tools: input.tools ?? [],
      task: input.task ?? "",
    },
    deps,
  );
}

/** The gold part, and which gold calls changed the state (what near-misses drop or alter). */
type GoldReplay = { part: GoldPart; changed: number[] };

const changesState = (diff: { added: unknown[]; removed: unknown[]; changed: unknown[] }) =>
  diff.added.length + diff.removed.length + diff.changed.length > 0;

async function replayGold(
  episode: Episode,
  gold: { source: GoldSource; calls: GoldCall[] },
  codes: string[],
): Promise<GoldReplay> {
  const changed: number[] = [];
  const part: GoldPart = {
    source: gold.source,
    calls: gold.calls,
    refusedCalls: [],
    finalState: null,
    results: [],
    error: null,
  };
  for (const [index, call] of gold.calls.entries()) {
    const step = await episode.step(call.name, call.arguments);
    if (!step.ok)
      return {
        part: {
          ...part,
          error: `gold call ${index + 1} (${call.name}) crashed: ${step.error.code}: ${step.error.message}`,
        },
        changed,
      };
    if (step.value.isError) part.refusedCalls.push(index);
    else if (changesState(step.value.diff)) changed.push(index);
  }
  const state = await episode.state();
  if (!state.ok)
    return { part: { ...part, error: `reading the final state failed: ${state.error.message}` }, changed };
  const checks = await episode.check(codes);
  if (!checks.ok)
    return {
      part: { ...part, finalState: state.value, error: `running the checks failed: ${checks.error.message}` },
      changed,
    };
  return { part: { ...part, finalState: state.value, results: checks.value }, changed };
}

async function measureSensitivity(
  deps: ProofDeps,
  codes: string[],
  initial: JsonObject,
  final: JsonObject | null,
): Promise<Result<SensitivityPart, SandboxError>> {
  if (final === null) return ok({ ran: false, checks: [] });
  // One sandbox call for both states; a check that hits a limit on one gets it as its result there.
  const both = await deps.sandbox.runChecksBatch({
    checks: codes,
    cases: [
      { initialState: initial, finalState: initial },
      { initialState: initial, finalState: final },
    ],
  });
  if (!both.ok) return unavailableOrData(both.error);
  const [onInitial = [], onGold = []] = both.value;
  const checks = codes.map((_, i) => {
    const a = onInitial[i] ?? null;
    const b = onGold[i] ?? null;
    return {
      position: i,
      onInitial: a,
      onGold: b,
      flips: failedCleanly(a ?? undefined) && passed(b ?? undefined),
    };
  });
  return ok({ ran: true, checks });
}

function unavailableOrData(error: SandboxError): Result<SensitivityPart, SandboxError> {
  // A timeout in a check is the check's fault (recorded as not sensitive); no sandbox is not.
  return error.code === "SANDBOX_UNAVAILABLE" ? err(error) : ok({ ran: false, checks: [] });
}

function conclude(
  input: ProofInput,
  noop: NoopPart,
  gold: GoldPart,
  sensitivity: SensitivityPart,
): Omit<ProofOutcome, "nearMiss"> {
  const reasons: ProofReason[] = [];
  input.checks.forEach((check, i) => {
    const label = `check ${i + 1} ("${check.item}")`;
    const noopResult = noop.results[i];
    if (passed(noopResult))
      reasons.push({
        code: "PASSES_WITHOUT_WORK",
        position: i,
        message: `${label} passes on the untouched initial state`,
      });
    const noopError = errorOf(noopResult);
    if (noopError)
      reasons.push({
        code: "CHECK_ERROR",
        position: i,
        message: `${label} raises on the initial state: ${noopError}`,
      });
    const goldResult = gold.results[i];
    const goldError = errorOf(goldResult);
    if (goldError)
      reasons.push({
        code: "CHECK_ERROR",
        position: i,
        message: `${label} raises on the gold final state: ${goldError}`,
      });
    else if (gold.results.length > 0 && !passed(goldResult))
      reasons.push({
        code: "FAILS_ON_GOLD",
        position: i,
        message: `${label} fails after the gold solution (${gold.source ?? "?"})`,
      });
    const flip = sensitivity.checks[i];
    if (sensitivity.ran && flip && !flip.flips)
      reasons.push({
        code: "NOT_SENSITIVE",
        position: i,
        message: `${label} does not flip from false to true between the initial and the gold final state`,
      });
  });
  if (!input.gold)
    reasons.push({
      code: "NO_GOLD",
      position: null,
      message:
        "no gold solution: none stored, no rollout reached reward 1, and none could be obtained from the model",
    });
  if (gold.error) reasons.push({ code: "GOLD_CRASHED", position: null, message: gold.error });
  else if (input.gold && !sensitivity.ran)
    reasons.push({
      code: "NOT_SENSITIVE",
      position: null,
      message: "the checks could not be re-run on the recorded states",
    });
  return { status: reasons.length === 0 ? "VERIFIED" : "FAILED", noop, gold, sensitivity, reasons };
}

function loadFailure(error: SandboxError, gold: GoldPart): Result<ProofOutcome, SandboxError> {
  return sandboxFailure(error, gold, "the environment does not load with this initial state");
}

function sandboxFailure(
  error: SandboxError,
  gold: GoldPart,
  what = "the sandbox failed",
): Result<ProofOutcome, SandboxError> {
  if (error.code === "SANDBOX_UNAVAILABLE") return err(error);
  const reasons: ProofReason[] = [
    { code: "SANDBOX", position: null, message: `${what}: ${error.code}: ${error.message}` },
  ];
  return ok({
    status: "FAILED",
    noop: { ran: false, results: [] },
    gold,
    sensitivity: { ran: false, checks: [] },
    reasons,
    nearMiss: FAILED_NEAR_MISS,
  });
}
