/**
 * Runs a scenario's near-misses (near-miss.ts) in the sandbox as part of its validator proof: each
 * one in an episode of its own, loaded from the scenario's initial state, so nothing one replay did
 * reaches the next. The rule for a replay that goes wrong: a call the environment refuses (an error
 * observation, e.g. an id it does not know) is part of the trajectory — the episode goes on, and the
 * checks judge its final state exactly as a rollout's reward would, so a refusal counts as rejected
 * only through that state. A replay that cannot reach a final state (the sandbox ends the episode:
 * a timeout, a memory limit, a crash) or whose checks cannot run is CRASHED and counts neither way.
 */
import { type Result, err, ok } from "../core/result";
import { scoreChecks } from "../rollout/reward";
import type { JsonObject, SandboxError, SandboxRunner, Tool } from "../sandbox";
import { NEAR_MISS_CAP, canonicalJson, deriveNearMisses, nearMissCalls } from "./near-miss";
import type { GoldCall, NearMiss, NearMissPart, NearMissResult } from "./scenario.schema";

export type NearMissRunInput = {
  source: string;
  className: string;
  initialState: JsonObject;
  codes: string[];
  goldCalls: GoldCall[];
  stateChanging: number[];
  goldFinalState: JsonObject;
  tools: Tool[];
  task: string;
};

export const nearMissNotRun = (reason: string, status: NearMissPart["status"] = "NOT_RUN"): NearMissPart => ({
  status,
  reason,
  cap: NEAR_MISS_CAP,
  stateChangingCalls: [],
  results: [],
});

/** Err only when the sandbox is unavailable (the proof is retried); everything else is evidence. */
export async function runNearMisses(
  input: NearMissRunInput,
  deps: { sandbox: Pick<SandboxRunner, "load"> },
): Promise<Result<NearMissPart, SandboxError>> {
  if (input.goldCalls.length === 0)
    return ok(nearMissNotRun("the scenario has no gold calls to derive them from", "NONE_DERIVABLE"));
  const nearMisses = deriveNearMisses({
    calls: input.goldCalls,
    stateChanging: input.stateChanging,
    tools: input.tools,
    initialState: input.initialState,
    task: input.task,
  });
  if (nearMisses.length === 0)
    return ok({
      ...nearMissNotRun("no gold call changes the state", "NONE_DERIVABLE"),
      stateChangingCalls: input.stateChanging,
    });
  const results: NearMissResult[] = [];
  for (const nearMiss of nearMisses) {
    const result = await replayNearMiss(input, nearMiss, deps);
    if (!result.ok) return result;
    results.push(result.value);
  }
  return ok({
    status: "MEASURED",
    reason: null,
    cap: NEAR_MISS_CAP,
    stateChangingCalls: input.stateChanging,
    results,
  });
}

async function replayNearMiss(
  input: NearMissRunInput,
  nearMiss: NearMiss,
  deps: { sandbox: Pick<SandboxRunner, "load"> },
): Promise<Result<NearMissResult, SandboxError>> {
  const crashed = (error: string): NearMissResult => ({
    nearMiss,
    outcome: "CRASHED",
    checks: [],
    reward: null,
    error,
  });
  const loaded = await deps.sandbox.load({
    source: input.source,
    className: input.className,
    initialState: input.initialState,
  });
  if (!loaded.ok)
    return loaded.error.code === "SANDBOX_UNAVAILABLE"
      ? err(loaded.error)
      : ok(crashed(`loading failed: ${loaded.error.code}: ${loaded.error.message}`));
  const episode = loaded.value;
  try {
    for (const [index, call] of nearMissCalls(input.goldCalls, nearMiss).entries()) {
      const step = await episode.step(call.name, call.arguments);
      if (!step.ok)
        return sandboxOr(step.error, crashed(`call ${index + 1} (${call.name}) crashed: ${step.error.code}`));
    }
    const state = await episode.state();
    if (!state.ok)
      return sandboxOr(state.error, crashed(`reading the final state failed: ${state.error.code}`));
    if (canonicalJson(state.value) === canonicalJson(input.goldFinalState))
      return ok({ nearMiss, outcome: "SAME_AS_GOLD", checks: [], reward: null, error: null });
    const checks = await episode.check(input.codes);
    if (!checks.ok)
      return sandboxOr(checks.error, crashed(`running the checks failed: ${checks.error.code}`));
    return ok({
      nearMiss,
      outcome: "JUDGED",
      checks: checks.value,
      reward: scoreChecks(checks.value),
      error: null,
    });
  } finally {
    await episode.close();
  }
}

function sandboxOr(error: SandboxError, result: NearMissResult): Result<NearMissResult, SandboxError> {
  return error.code === "SANDBOX_UNAVAILABLE" ? err(error) : ok(result);
}
