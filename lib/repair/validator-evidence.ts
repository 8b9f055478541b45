/**
 * The evidence a check repair is asked with: the failing proof parts per check (which check, on
 * which state, what it returned), the gold calls with the environment's answers, and the state
 * diff the gold path made. The gold is replayed in the sandbox for its observations; nothing of the
 * environment's or the checks' code runs outside it.
 */
import { type Result, err, ok } from "../core/result";
import type { JsonObject, SandboxError, SandboxRunner, StateDiff } from "../sandbox";
import type { ProofInput } from "../scenarios/proof";
import type { ProofOutcome, ProofReason } from "../scenarios/scenario.schema";
import {
  CHECK_REASON_CODES,
  type FailingCheck,
  type GoldStep,
  type ValidatorEvidence,
} from "./repair.schema";

const isCheckReason = (r: ProofReason): r is ProofReason & { position: number } =>
  r.position !== null && (CHECK_REASON_CODES as readonly string[]).includes(r.code);

/** The checks a proof condemned, in checklist order (a proof with none has nothing to repair in its checks). */
export function failingChecks(input: ProofInput, proof: ProofOutcome): FailingCheck[] {
  const byPosition = new Map<number, ProofReason[]>();
  for (const reason of proof.reasons.filter(isCheckReason))
    byPosition.set(reason.position, [...(byPosition.get(reason.position) ?? []), reason]);
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([index, reasons]) => {
      const check = input.checks[index];
      if (!check) return [];
      const flip = proof.sensitivity.checks.find((c) => c.position === index);
      return [
        {
          position: index,
          item: check.item,
          code: check.code,
          reasons,
          onInitial: flip?.onInitial ?? proof.noop.results[index] ?? null,
          onGold: flip?.onGold ?? proof.gold.results[index] ?? null,
        },
      ];
    });
}

type Trace = { steps: GoldStep[]; finalState: JsonObject | null; diff: StateDiff | null };

/** Replays the gold calls for what each returned; a crash ends the trace where it happened. */
export async function traceGold(
  input: ProofInput,
  deps: { sandbox: Pick<SandboxRunner, "load"> },
): Promise<Result<Trace, SandboxError>> {
  const calls = input.gold?.calls ?? [];
  const loaded = await deps.sandbox.load({
    source: input.source,
    className: input.className,
    initialState: input.initialState,
  });
  if (!loaded.ok) return loaded.error.code === "SANDBOX_UNAVAILABLE" ? err(loaded.error) : ok(emptyTrace());
  const episode = loaded.value;
  try {
    const steps: GoldStep[] = [];
    for (const call of calls) {
      const step = await episode.step(call.name, call.arguments);
      if (!step.ok) {
        steps.push({
          ...call,
          observation: `crashed: ${step.error.code}: ${step.error.message}`,
          isError: true,
        });
        return ok({ steps, finalState: null, diff: null });
      }
      steps.push({ ...call, observation: step.value.observation, isError: step.value.isError });
    }
    const state = await episode.state();
    const diff = await episode.diff();
    return ok({ steps, finalState: state.ok ? state.value : null, diff: diff.ok ? diff.value : null });
  } finally {
    await episode.close();
  }
}

const emptyTrace = (): Trace => ({ steps: [], finalState: null, diff: null });

export async function gatherValidatorEvidence(
  input: ProofInput & { task: string },
  proof: ProofOutcome,
  deps: { sandbox: Pick<SandboxRunner, "load"> },
): Promise<Result<ValidatorEvidence, SandboxError>> {
  const trace = await traceGold(input, deps);
  if (!trace.ok) return trace;
  return ok({
    task: input.task,
    initialState: input.initialState,
    gold: trace.value.steps,
    goldFinalState: trace.value.finalState,
    stateDiff: trace.value.diff,
    failing: failingChecks(input, proof),
  });
}
