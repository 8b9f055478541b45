import "server-only";
/**
 * Validator test bench: run a scenario's check functions (saved, or edits not saved yet) against a
 * chosen final state: the initial state (a no-op agent), the gold final state (the scenario's
 * goldCalls replayed in the sandbox), a stored trajectory's final state, or a state the reviewer
 * typed. Nothing is stored; all Python runs in the sandbox process.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { SandboxRunner } from "@/lib/sandbox";
import { type BenchRun, GoldCallsSchema, type RunBenchInput } from "../bench.schema";

const StateSchema = z.record(z.string(), z.unknown());

async function goldFinalState(
  sandbox: Pick<SandboxRunner, "load">,
  version: { source: string; className: string },
  initialState: Record<string, unknown>,
  goldCalls: unknown,
) {
  const calls = GoldCallsSchema.safeParse(goldCalls ?? []);
  if (!calls.success || calls.data.length === 0)
    throw new AppError("INVALID_INPUT", "This scenario has no gold calls to replay.");
  const loaded = await sandbox.load({ source: version.source, className: version.className, initialState });
  if (!loaded.ok)
    throw new AppError("INVALID_INPUT", `The environment did not load: ${loaded.error.message}`);
  const episode = loaded.value;
  try {
    const log: BenchRun["goldLog"] = [];
    for (const call of calls.data) {
      const step = await episode.step(call.name, call.args);
      if (!step.ok)
        throw new AppError(
          "UNAVAILABLE",
          `Gold call ${call.name} failed in the sandbox: ${step.error.message}`,
        );
      log.push({ name: call.name, isError: step.value.isError });
    }
    const state = await episode.state();
    if (!state.ok)
      throw new AppError("UNAVAILABLE", `Reading the gold final state failed: ${state.error.message}`);
    return { state: state.value, log };
  } finally {
    await episode.close();
  }
}

export async function runValidatorBench(
  db: Db,
  input: RunBenchInput,
  sandbox: Pick<SandboxRunner, "load" | "runChecks">,
): Promise<BenchRun> {
  const scenario = await db.scenario.findUnique({
    where: { id: input.scenarioId },
    include: {
      environmentVersion: { select: { source: true, className: true } },
      validators: { orderBy: { position: "asc" }, include: { currentVersion: true } },
    },
  });
  if (!scenario) throw new AppError("NOT_FOUND", "Scenario was not found.");
  const initialState = StateSchema.catch({}).parse(scenario.initialState);
  let finalState: Record<string, unknown> = initialState;
  let goldLog: BenchRun["goldLog"] = [];
  if (input.stateSource === "gold") {
    ({ state: finalState, log: goldLog } = await goldFinalState(
      sandbox,
      scenario.environmentVersion,
      initialState,
      scenario.goldCalls,
    ));
  } else if (input.stateSource === "trajectory") {
    const t = await db.trajectory.findFirst({
      where: { id: input.trajectoryId ?? "", scenarioId: scenario.id },
      select: { finalState: true },
    });
    if (!t) throw new AppError("NOT_FOUND", "Pick one of this scenario's trajectories.");
    finalState = StateSchema.catch({}).parse(t.finalState);
  } else if (input.stateSource === "custom") {
    if (!input.customState) throw new AppError("INVALID_INPUT", "Enter a state as a JSON object.");
    finalState = input.customState;
  }
  const validators = scenario.validators.filter((v) => v.currentVersion);
  const codes = validators.map((v) => input.codes[v.id] ?? v.currentVersion?.code ?? "");
  const results = await sandbox.runChecks({ checks: codes, initialState, finalState });
  if (!results.ok)
    throw new AppError("UNAVAILABLE", `The checks did not run: ${results.error.message}`, {
      retryable: results.error.retryable,
    });
  return {
    stateSource: input.stateSource,
    finalState,
    goldLog,
    checks: validators.map((v, i) => ({
      validatorId: v.id,
      position: v.position,
      checkItem: v.checkItem,
      result: results.value[i] ?? { error: "no result" },
    })),
  };
}
