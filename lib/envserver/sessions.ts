/**
 * Sessions of the environment server: one sandbox episode each, a step budget, the reward from the
 * validators when the agent submits, and a reaper for idle sessions. No HTTP here.
 *
 * Every session belongs to the client that created it (its `owner` key: a WebSocket connection's
 * private key, or the `session_key` an HTTP reset hands out); knowing a session's id is not enough
 * to step, read or close it. Live sessions never outnumber what the sandbox can host (its workers,
 * or any number when sessions share workers): a reset beyond that is refused at once instead of
 * waiting for a worker that will not come.
 */
import { randomInt, randomUUID } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { Episode, SandboxRunner } from "../sandbox";
import { type Catalog, type ServedScenario, pickScenario } from "./catalog";
import { type Action, type ResetBody, SUBMIT_SCHEMA, SUBMIT_TOOL, type StepReply } from "./envserver.schema";

export type ServeError = {
  code: "NOT_FOUND" | "CAPACITY" | "FORBIDDEN" | "SANDBOX" | "INVALID";
  message: string;
};

/** Who created a session; `onEvicted` hears when the server closes it (idle reaping). */
export type Owner = { key: string; onEvicted?: (reason: string) => void };

type Session = {
  id: string;
  owner: Owner;
  scenario: ServedScenario;
  episode: Episode | null;
  /** Steps reserved (a call counts before it is queued, submit included): never above maxSteps. */
  stepCount: number;
  /** A submit was reserved: nothing after it runs (the episode ends with its reward). */
  submitted: boolean;
  lastSeen: number;
  done: boolean;
  reward: number | null;
  /** The environment's state when the episode ended (the worker is gone by then). */
  finalSnapshot: Record<string, unknown> | null;
  snapshotError?: string;
};

export type SessionOptions = {
  maxSessions: number;
  /** Live sessions the sandbox can host (start-server.ts sandboxSessionCeiling): its pool size, or
   * the session limit when sessions share workers. */
  sandboxWorkers: number;
  maxSteps: number;
  idleMs: number;
  now?: () => number;
};

export const ENDED_MESSAGE = "the episode is over: reset to start another";

export function createSessions(catalog: Catalog, sandbox: SandboxRunner, opts: SessionOptions) {
  const sessions = new Map<string, Session>();
  const now = opts.now ?? Date.now;
  const capacity = Math.min(opts.maxSessions, opts.sandboxWorkers);
  // Workers held: reserved before a load starts, released once the episode's worker is returned,
  // so concurrent resets and closes still in flight are counted.
  let held = 0;

  async function end(session: Session) {
    const episode = session.episode;
    if (!episode) return;
    session.episode = null;
    session.done = true;
    try {
      const snapshot = await episode.state();
      if (snapshot.ok) session.finalSnapshot = snapshot.value;
      else session.snapshotError = `${snapshot.error.code}: ${snapshot.error.message}`;
    } finally {
      // Whatever happened above, the worker goes back and stops counting against capacity.
      await episode.close().finally(() => (held -= 1));
    }
  }

  /** The session, if `ownerKey` may act on it (undefined key: the server itself). */
  function owned(id: string, ownerKey: string | undefined): Result<Session, ServeError> {
    const session = sessions.get(id);
    if (!session)
      return err({
        code: "NOT_FOUND",
        message: `no session ${id} (reset first; idle sessions are closed after ${opts.idleMs} ms)`,
      });
    // An empty key is no key: it never matches, whatever a reset was given.
    if (ownerKey !== undefined && (ownerKey === "" || session.owner.key !== ownerKey))
      return err({
        code: "FORBIDDEN",
        message: `session ${id} belongs to another client (HTTP: send the session_key its reset returned)`,
      });
    return ok(session);
  }

  function capacityError(): ServeError {
    const which =
      opts.sandboxWorkers < opts.maxSessions
        ? `its ${capacity} sandbox workers (SANDBOX_POOL_SIZE)`
        : `its limit of ${capacity} sessions (ENVSTUDIO_SERVE_MAX_SESSIONS)`;
    return { code: "CAPACITY", message: `the server is at ${which}: close a session or try again later` };
  }

  async function reset(
    body: ResetBody,
    owner: Owner,
  ): Promise<Result<{ id: string; reply: StepReply }, ServeError>> {
    const scenario = pickScenario(catalog, { scenarioId: body.scenario_id, seed: body.seed });
    if (!scenario)
      return err({
        code: "NOT_FOUND",
        message: `no scenario ${body.scenario_id ?? ""} in dataset ${catalog.name}`.replace("  ", " "),
      });
    if (!owner.key)
      return err({ code: "INVALID", message: "a session needs a non-empty owner key (session_key)" });
    const id = body.episode_id ?? randomUUID();
    if (sessions.has(id)) {
      const mine = owned(id, owner.key);
      if (!mine.ok) return mine;
      await close(id, owner.key);
    }
    if (held >= capacity) return err(capacityError());
    held += 1;
    // The episode's own random seed: the client's, or one drawn here and reported, so that the
    // episode can be reproduced (and a replay after a worker's death reproduces it).
    const seed = body.seed ?? randomInt(2 ** 31);
    const loaded = await sandbox.load({
      source: scenario.source,
      className: scenario.className,
      initialState: scenario.initialState,
      seed,
    });
    if (!loaded.ok) {
      held -= 1;
      return err({ code: "SANDBOX", message: `${loaded.error.code}: ${loaded.error.message}` });
    }
    sessions.set(id, {
      id,
      owner,
      scenario,
      episode: loaded.value,
      stepCount: 0,
      submitted: false,
      lastSeen: now(),
      done: false,
      reward: null,
      finalSnapshot: null,
    });
    const tools = [...scenario.tools, SUBMIT_SCHEMA];
    return ok({
      id,
      reply: {
        observation: {
          content: scenario.task,
          tools,
          metadata: { episode_id: id, scenario_id: scenario.id, env_id: scenario.envId, seed },
        },
        reward: null,
        done: false,
      },
    });
  }

  async function score(session: Session): Promise<StepReply> {
    const checks = session.episode ? await session.episode.check(session.scenario.checks) : null;
    const results = checks?.ok ? checks.value : [];
    // EnvScaler's reward: passing checks over all checks; an erroring check counts as failed.
    const passed = results.filter((r) => "passed" in r && r.passed).length;
    session.reward = session.scenario.checks.length
      ? Math.round((passed / session.scenario.checks.length) * 10_000) / 10_000
      : 0;
    await end(session);
    const metadata = {
      episode_id: session.id,
      step_count: session.stepCount,
      checks: results,
      ...(checks && !checks.ok ? { error: checks.error.message } : {}),
    };
    return {
      observation: { content: { success: true, checks: results }, metadata },
      reward: session.reward,
      done: true,
    };
  }

  async function step(id: string, action: Action, ownerKey: string): Promise<Result<StepReply, ServeError>> {
    const found = owned(id, ownerKey);
    if (!found.ok) return found;
    const session = found.value;
    session.lastSeen = now();
    const episode = session.episode;
    // As an OpenEnv environment does: a step after the end is an observation with done=True
    // (upstream clients raise on an error message), and it changes nothing. A call that finds the
    // budget spent, or a submit already on its way, is refused the same way — before it is queued:
    // concurrent calls must not all slip in before the first of them ends the episode.
    if (
      session.done ||
      !episode ||
      session.submitted ||
      (action.type !== "list_tools" && session.stepCount >= opts.maxSteps)
    )
      return ok(endedReply(session));
    if (action.type === "list_tools")
      return ok({
        observation: {
          content: null,
          tools: [...session.scenario.tools, SUBMIT_SCHEMA],
          metadata: { episode_id: id },
        },
        reward: null,
        done: false,
      });
    session.stepCount += 1;
    const stepNumber = session.stepCount;
    if (action.tool_name === SUBMIT_TOOL) {
      session.submitted = true;
      return ok(await score(session));
    }
    const result = await episode.step(action.tool_name, action.arguments);
    // Ended while this call waited (a submit or a failed call queued before it): the episode's
    // outcome is settled and this call changes nothing.
    if (session.done) return ok(endedReply(session));
    if (!result.ok) {
      // A timeout or crash ends the episode with reward 0, as a tool exception does in EnvScaler.
      session.reward = 0;
      await end(session);
      return ok({
        observation: {
          content: { success: false, error: result.error.message, error_type: result.error.code },
          metadata: { episode_id: id, step_count: stepNumber },
        },
        reward: 0,
        done: true,
      });
    }
    const truncated = stepNumber >= opts.maxSteps;
    if (truncated) {
      session.reward = 0;
      await end(session);
    }
    const metadata = {
      episode_id: id,
      step_count: stepNumber,
      diff: result.value.diff,
      ...(truncated ? { truncated: true } : {}),
    };
    return ok({
      observation: { content: result.value.observation, metadata },
      reward: truncated ? 0 : null,
      done: truncated,
    });
  }

  function endedReply(session: Session): StepReply {
    const budget = !session.done && !session.submitted && session.stepCount >= opts.maxSteps;
    return {
      observation: {
        content: {
          success: false,
          error: budget
            ? `the step budget of ${opts.maxSteps} (ENVSTUDIO_SERVE_MAX_STEPS) is spent`
            : ENDED_MESSAGE,
        },
        metadata: { episode_id: session.id, step_count: session.stepCount },
      },
      reward: null,
      done: true,
    };
  }

  /** OpenEnv's State: episode_id and step_count, plus the environment's snapshot (never null). */
  async function state(id: string, ownerKey: string): Promise<Result<Record<string, unknown>, ServeError>> {
    const found = owned(id, ownerKey);
    if (!found.ok) return found;
    const session = found.value;
    session.lastSeen = now();
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

  /** Closes a session (its owner, or the server when `ownerKey` is undefined). */
  async function close(id: string, ownerKey?: string): Promise<Result<void, ServeError>> {
    const found = owned(id, ownerKey);
    if (!found.ok) return found;
    sessions.delete(id);
    await end(found.value);
    return ok(undefined);
  }

  /** Closes sessions idle for longer than idleMs and tells their owners; returns how many. */
  async function reap(): Promise<number> {
    const stale = [...sessions.values()].filter((s) => now() - s.lastSeen > opts.idleMs);
    await Promise.all(
      stale.map(async (s) => {
        await close(s.id);
        s.owner.onEvicted?.(
          `session ${s.id} was idle for more than ${opts.idleMs} ms (ENVSTUDIO_SERVE_IDLE_MS) and was closed`,
        );
      }),
    );
    return stale.length;
  }

  return {
    reset,
    step,
    state,
    close,
    reap,
    capacity,
    size: () => sessions.size,
    live: () => held,
    closeAll: () => Promise.all([...sessions.keys()].map((id) => close(id))),
  };
}
export type Sessions = ReturnType<typeof createSessions>;
