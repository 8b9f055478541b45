/**
 * A trajectory that reached reward 1 is a gold solution for the validator proof: its accepted tool
 * calls, in order. Calls the environment refused are dropped (they changed nothing).
 */
import type { TrajectoryStep } from "./rollout.schema";

export function goldCallsFromSteps(
  steps: TrajectoryStep[],
): { name: string; arguments: Record<string, unknown> }[] {
  return steps.flatMap((s) =>
    s.type === "tool_call" && !s.isError && s.arguments ? [{ name: s.name, arguments: s.arguments }] : [],
  );
}
