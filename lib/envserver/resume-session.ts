/**
 * Resuming an episode on a new connection (a WebSocket opened with `?episode_id=` and the episode's
 * session key): the episode is live here, or was just taken over from the journal (sessions.ts),
 * and the new connection becomes its holder. When it cannot be resumed, the error says why: another
 * client's key, an ended episode, an unknown one, another dataset version.
 */
import { type Result, err, ok } from "../core/result";
import { type EpisodeJournal, hashSessionKey } from "./episode-journal";
import { JOURNAL_DOWN } from "./reset-session";
import type { Owner, ServeError, SessionTable } from "./session-table";

export const resumeEndedMessage = (id: string) =>
  `episode ${id} is over (submitted, out of steps, closed or idle too long) and cannot be resumed: reset to start another`;

/** Whether `key` may resume `id` here now (call after any takeover was attempted). */
export async function checkResumable(
  table: SessionTable,
  catalogName: string,
  id: string,
  key: string,
): Promise<Result<void, ServeError>> {
  const found = table.owned(id, key);
  if (found.ok)
    return found.value.done ? err({ code: "GONE", message: resumeEndedMessage(id) }) : ok(undefined);
  if (found.error.code === "FORBIDDEN") return found;
  return err(await whyNotHere(table.opts.journal, catalogName, id, key));
}

/** Makes `owner` (a new connection) the holder of the live session `id`; the previous holder
 * hears it was replaced. False when the session is gone (reaped in between). */
export function rebindSession(table: SessionTable, id: string, owner: Owner): boolean {
  const found = table.owned(id, owner.key);
  if (!found.ok) return false;
  const previous = found.value.owner;
  found.value.owner = owner;
  found.value.lastSeen = table.now();
  if (previous !== owner) previous.onReplaced?.();
  return true;
}

async function whyNotHere(
  journal: EpisodeJournal | undefined,
  catalogName: string,
  id: string,
  key: string,
): Promise<ServeError> {
  const notFound = (why: string): ServeError => ({ code: "NOT_FOUND", message: `no episode ${id} ${why}` });
  if (!journal)
    return notFound(
      "on this replica (without ENVSTUDIO_SERVE_JOURNAL=1 an episode lives only on the replica that started it)",
    );
  const entry = await journal.inspect(id).catch((e: Error) => {
    console.error(`[serve] journal inspect ${id}:`, e.message);
    return undefined;
  });
  if (entry === undefined) return { code: "CAPACITY", message: JOURNAL_DOWN };
  if (!entry) return notFound("in the journal (never started, or ended and pruned)");
  if (entry.keyHash !== hashSessionKey(key))
    return { code: "FORBIDDEN", message: `episode ${id} belongs to another client (wrong session key)` };
  if (entry.ended) return { code: "GONE", message: resumeEndedMessage(id) };
  if (entry.catalog !== catalogName)
    return notFound(`in ${catalogName}: it was started on ${entry.catalog}, served by other replicas`);
  return notFound("that this replica could take over");
}
