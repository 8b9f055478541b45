/**
 * Sessions of the environment server: one sandbox episode each, a step budget, the reward from the
 * validators when the agent submits, and a reaper for idle sessions. No HTTP here.
 */
import { randomUUID } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { Episode, SandboxRunner } from "../sandbox";
import { type Catalog, type ServedScenario, pickScenario } from "./catalog";
import { type Action, type ResetBody, SUBMIT_SCHEMA, SUBMIT_TOOL, type StepReply } from "./envserver.schema";

export type ServeError = { code: "NOT_FOUND" | "CAPACITY" | "ENDED" | "SANDBOX" | "INVALID"; message: string };

type Session = { id: string; scenario: ServedScenario; episode: Episode | null; stepCount: number; lastSeen: number; done: boolean; reward: number | null };

export type SessionOptions = { maxSessions: number; maxSteps: number; idleMs: number; now?: () => number };

export function createSessions(catalog: Catalog, sandbox: SandboxRunner, opts: SessionOptions) {
  const sessions = new Map<string, Session>();
  const now = opts.now ?? Date.now;

  async function end(session: Session) {
    const episode = session.episode;
    session.episode = null;
    session.done = true;
    await episode?.close();
  }

  async function reset(body: ResetBody): Promise<Result<{ id: string; reply: StepReply }, ServeError>> {
    const scenario = pickScenario(catalog, { scenarioId: body.scenario_id, seed: body.seed });
    if (!scenario) return err({ code: "NOT_FOUND", message: `no scenario ${body.scenario_id ?? ""} in dataset ${catalog.name}`.replace("  ", " ") });
    const id = body.episode_id ?? randomUUID();
    const previous = sessions.get(id);
    if (previous) await close(id);
    // Finished sessions stay (for /state) until reaped, but only live ones hold a sandbox worker.
    const live = [...sessions.values()].filter((s) => s.episode !== null).length;
    if (live >= opts.maxSessions) return err({ code: "CAPACITY", message: `the server is at its limit of ${opts.maxSessions} sessions (ENVSTUDIO_SERVE_MAX_SESSIONS)` });
    const loaded = await sandbox.load({ source: scenario.source, className: scenario.className, initialState: scenario.initialState });
    if (!loaded.ok) return err({ code: "SANDBOX", message: `${loaded.error.code}: ${loaded.error.message}` });
    sessions.set(id, { id, scenario, episode: loaded.value, stepCount: 0, lastSeen: now(), done: false, reward: null });
    const tools = [...scenario.tools, SUBMIT_SCHEMA];
    return ok({ id, reply: { observation: { content: scenario.task, tools, metadata: { episode_id: id, scenario_id: scenario.id, env_id: scenario.envId } }, reward: null, done: false } });
  }

  async function score(session: Session): Promise<StepReply> {
    const checks = session.episode ? await session.episode.check(session.scenario.checks) : null;
    const results = checks?.ok ? checks.value : [];
    // EnvScaler's reward: passing checks over all checks; an erroring check counts as failed.
    const passed = results.filter((r) => "passed" in r && r.passed).length;
    session.reward = session.scenario.checks.length ? Math.round((passed / session.scenario.checks.length) * 10_000) / 10_000 : 0;
    await end(session);
    const metadata = { episode_id: session.id, step_count: session.stepCount, checks: results, ...(checks && !checks.ok ? { error: checks.error.message } : {}) };
    return { observation: { content: { success: true, checks: results }, metadata }, reward: session.reward, done: true };
  }

  async function step(id: string, action: Action): Promise<Result<StepReply, ServeError>> {
    const session = sessions.get(id);
    if (!session) return err({ code: "NOT_FOUND", message: `no session ${id} (reset first; idle sessions are closed after ${opts.idleMs} ms)` });
    session.lastSeen = now();
    if (session.done || !session.episode) return err({ code: "ENDED", message: "the episode is over: reset to start another" });
    if (action.type === "list_tools") return ok({ observation: { content: null, tools: [...session.scenario.tools, SUBMIT_SCHEMA], metadata: { episode_id: id } }, reward: null, done: false });
    session.stepCount += 1;
    if (action.tool_name === SUBMIT_TOOL) return ok(await score(session));
    const result = await session.episode.step(action.tool_name, action.arguments);
    if (!result.ok) {
      // A timeout or crash ends the episode with reward 0, as a tool exception does in EnvScaler.
      await end(session);
      session.reward = 0;
      return ok({ observation: { content: { success: false, error: result.error.message, error_type: result.error.code }, metadata: { episode_id: id, step_count: session.stepCount } }, reward: 0, done: true });
    }
    const truncated = session.stepCount >= opts.maxSteps;
    if (truncated) {
      await end(session);
      session.reward = 0;
    }
    const metadata = { episode_id: id, step_count: session.stepCount, diff: result.value.diff, ...(truncated ? { truncated: true } : {}) };
    return ok({ observation: { content: result.value.observation, metadata }, reward: truncated ? 0 : null, done: truncated });
  }

  async function state(id: string): Promise<Result<Record<string, unknown>, ServeError>> {
    const session = sessions.get(id);
    if (!session) return err({ code: "NOT_FOUND", message: `no session ${id}` });
    session.lastSeen = now();
    const snapshot = session.episode ? await session.episode.state() : null;
    return ok({ episode_id: id, step_count: session.stepCount, scenario_id: session.scenario.id, done: session.done, reward: session.reward, snapshot: snapshot?.ok ? snapshot.value : null });
  }

  async function close(id: string): Promise<void> {
    const session = sessions.get(id);
    sessions.delete(id);
    if (session) await end(session);
  }

  /** Closes sessions idle for longer than idleMs; returns how many. */
  async function reap(): Promise<number> {
    const stale = [...sessions.values()].filter((s) => now() - s.lastSeen > opts.idleMs);
    await Promise.all(stale.map((s) => close(s.id)));
    return stale.length;
  }

  return { reset, step, state, close, reap, size: () => sessions.size, closeAll: () => Promise.all([...sessions.keys()].map(close)) };
}
export type Sessions = ReturnType<typeof createSessions>;
