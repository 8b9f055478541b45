import "server-only";
/**
 * One playground call, stateless on the server: load the version with the chosen initial state in
 * the sandbox, replay the earlier calls, run the new one, return observation, diff and state.
 *
 * Why replay rather than keep a live episode per playground: nothing to lease, expire or leak
 * (a closed tab costs nothing), it survives server restarts and works behind several web
 * processes, and it reproduces private attributes and Python objects that the JSON state alone
 * would lose. The cost is O(steps) per call, bounded by MAX_PLAYGROUND_STEPS; tools are plain
 * state transitions, so replay is fast. A tool that is not deterministic is detected (the replayed
 * observation differs from the recorded one) and reported instead of silently diverging.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { SandboxRunner } from "@/lib/sandbox";
import type { PlaygroundStep, RunToolInput } from "../playground.schema";

const stable = (v: unknown) => JSON.stringify(v);

export async function runPlaygroundTool(
  db: Db,
  input: RunToolInput,
  sandbox: Pick<SandboxRunner, "load">,
): Promise<PlaygroundStep> {
  const version = await db.environmentVersion.findFirst({
    where: { id: input.versionId, environmentId: input.environmentId },
    select: { source: true, className: true },
  });
  if (!version) throw new AppError("NOT_FOUND", "That environment version was not found.");
  const loaded = await sandbox.load({
    source: version.source,
    className: version.className,
    initialState: input.initialState,
  });
  if (!loaded.ok)
    throw new AppError("INVALID_INPUT", `The environment did not load: ${loaded.error.message}`, {
      retryable: loaded.error.retryable,
    });
  const episode = loaded.value;
  try {
    let divergedAt: number | null = null;
    for (const [i, past] of input.history.entries()) {
      const replayed = await episode.step(past.name, past.args);
      if (!replayed.ok)
        throw new AppError(
          "UNAVAILABLE",
          `Replaying call ${i + 1} (${past.name}) failed: ${replayed.error.message}`,
          { retryable: replayed.error.retryable },
        );
      if (
        divergedAt === null &&
        past.observation !== undefined &&
        stable(replayed.value.observation) !== stable(past.observation)
      )
        divergedAt = i;
    }
    const step = await episode.step(input.call.name, input.call.args);
    if (!step.ok)
      throw new AppError("UNAVAILABLE", `The call failed in the sandbox: ${step.error.message}`, {
        retryable: step.error.retryable,
      });
    const state = await episode.state();
    if (!state.ok) throw new AppError("UNAVAILABLE", `Reading the state failed: ${state.error.message}`);
    return {
      call: input.call,
      observation: step.value.observation,
      isError: step.value.isError,
      diff: step.value.diff,
      state: state.value,
      stdout: step.value.stdout,
      divergedAt,
    };
  } finally {
    await episode.close();
  }
}
