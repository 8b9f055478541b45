/**
 * Sessions of the environment server: one sandbox episode each, a step budget, the reward from the
 * validators when the agent submits, and a reaper for idle sessions. No HTTP here.
 *
 * The parts, one file each: the table of live sessions with their owners and the workers they hold
 * (session-table.ts), a reset (reset-session.ts), a step or submit (step-session.ts) and a session's
 * state (session-state.ts). Live sessions never outnumber what the sandbox can host (its workers, or
 * any number when sessions share workers): a reset beyond that is refused at once instead of waiting
 * for a worker that will not come.
 */
import { type Result, ok } from "../core/result";
import type { SandboxRunner } from "../sandbox";
import { adoptSession } from "./adopt-session";
import type { Catalog } from "./catalog";
import type { Action, ResetBody } from "./envserver.schema";
import { resetSession } from "./reset-session";
import { checkResumable, rebindSession } from "./resume-session";
import { type Owner, type ServeError, type SessionOptions, createSessionTable } from "./session-table";
import { sessionState } from "./session-state";
import { stepSession } from "./step-session";

export type { Owner, ServeError, SessionOptions } from "./session-table";
export { ENDED_MESSAGE } from "./step-session";

export function createSessions(catalog: Catalog, sandbox: SandboxRunner, opts: SessionOptions) {
  const table = createSessionTable(opts);
  const adopting = new Map<string, Promise<Result<void, ServeError>>>();

  /** With a journal, an episode this replica does not hold may be taken over (adopt-session.ts);
   * concurrent requests for one episode wait for one takeover. */
  function here(id: string, ownerKey: string): Promise<Result<void, ServeError>> {
    const journal = opts.journal;
    if (!journal || table.has(id)) return Promise.resolve(ok(undefined));
    const key = `${id}\0${ownerKey}`;
    let adoption = adopting.get(key);
    if (!adoption) {
      adoption = adoptSession(table, catalog, sandbox, journal, id, ownerKey).finally(() =>
        adopting.delete(key),
      );
      adopting.set(key, adoption);
    }
    return adoption;
  }

  return {
    reset: (body: ResetBody, owner: Owner) => resetSession(table, catalog, sandbox, body, owner),
    step: async (id: string, action: Action, ownerKey: string) => {
      const adopted = await here(id, ownerKey);
      return adopted.ok ? stepSession(table, id, action, ownerKey) : adopted;
    },
    state: async (id: string, ownerKey: string) => {
      const adopted = await here(id, ownerKey);
      return adopted.ok ? sessionState(table, id, ownerKey) : adopted;
    },
    /** Whether `key` may continue episode `id` on a new connection here (taking it over from the
     * journal if another replica held it); then `rebind` hands the session to that connection. */
    resume: async (id: string, key: string) => {
      const adopted = await here(id, key);
      return adopted.ok ? checkResumable(table, catalog.name, id, key) : adopted;
    },
    rebind: (id: string, owner: Owner) => rebindSession(table, id, owner),
    /** Episodes are journaled: one outlives its connection and its replica (until reaped). */
    journaled: opts.journal !== undefined,
    close: table.close,
    /** Whether `key` may act on the live session `id`. */
    owns: (id: string, key: string) => table.owned(id, key).ok,
    /** The scenario the live session `id` serves, when `key` may act on it. */
    scenarioOf: (id: string, key: string) => {
      const found = table.owned(id, key);
      return found.ok ? found.value.scenario : null;
    },
    reap: table.reap,
    releaseLost: table.releaseLost,
    capacity: table.capacity,
    size: table.size,
    live: table.live,
    closeAll: table.closeAll,
  };
}
export type Sessions = ReturnType<typeof createSessions>;
