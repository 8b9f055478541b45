/**
 * OpenEnv's State of a session: episode_id and step_count, plus the environment's snapshot (never
 * null): the live state while the episode runs, the state it ended in afterwards.
 */
import { type Result, ok } from "../core/result";
import type { ServeError, SessionTable } from "./session-table";

export async function sessionState(
  table: SessionTable,
  id: string,
  ownerKey: string,
): Promise<Result<Record<string, unknown>, ServeError>> {
  const found = table.owned(id, ownerKey);
  if (!found.ok) return found;
  const session = found.value;
  session.lastSeen = table.now();
  const live = session.episode ? await session.episode.state() : null;
  const snapshot = live ? (live.ok ? live.value : {}) : (session.finalSnapshot ?? {});
  const snapshotError =
    live && !live.ok
      ? `${live.error.code}: ${live.error.message}`
      : session.episode
        ? undefined
        : session.snapshotError;
  return ok({
    episode_id: id,
    step_count: session.stepCount,
    scenario_id: session.scenario.id,
    done: session.done,
    reward: session.reward,
    snapshot,
    ...(snapshotError ? { snapshot_error: snapshotError } : {}),
  });
}
