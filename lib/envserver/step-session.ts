/**
 * A step: one tool call in a session's episode under its step budget, or the submit that ends it
 * with the validators' reward. As an OpenEnv environment does, a step after the end is an
 * observation with done=True (upstream clients raise on an error message) and changes nothing.
 */
import { type Result, ok } from "../core/result";
import { type Action, SUBMIT_TOOL, type StepReply, observedTools } from "./envserver.schema";
import type { JournalCall } from "./episode-journal";
import type { ServeError, Session, SessionTable } from "./session-table";

export const ENDED_MESSAGE = "the episode is over: reset to start another";
export const NOT_RECORDED =
  "the episode journal could not record this call (the database is unreachable, or another replica took the episode over): the episode ends here, reset to start another";

export async function stepSession(
  table: SessionTable,
  id: string,
  action: Action,
  ownerKey: string,
): Promise<Result<StepReply, ServeError>> {
  const found = table.owned(id, ownerKey);
  if (!found.ok) return found;
  const session = found.value;
  const { maxSteps } = table.opts;
  session.lastSeen = table.now();
  const episode = session.episode;
  // A call that finds the budget spent, or a submit already on its way, is refused like a step
  // after the end — before it is queued: concurrent calls must not all slip in before the first of
  // them ends the episode.
  if (
    session.done ||
    !episode ||
    session.submitted ||
    (action.type !== "list_tools" && session.stepCount >= maxSteps)
  )
    return ok(endedReply(session, maxSteps));
  if (action.type === "list_tools")
    return ok({
      observation: {
        content: null,
        tools: observedTools(session.scenario),
        metadata: { episode_id: id },
      },
      reward: null,
      done: false,
    });
  session.stepCount += 1;
  const stepNumber = session.stepCount;
  if (action.tool_name === SUBMIT_TOOL) {
    session.submitted = true;
    return ok(await score(table, session));
  }
  const result = session.diffs
    ? await episode.step(action.tool_name, action.arguments)
    : await episode.act(action.tool_name, action.arguments);
  // Ended while this call waited (a submit or a failed call queued before it): the episode's
  // outcome is settled and this call changes nothing.
  if (session.done) return ok(endedReply(session, maxSteps));
  if (!result.ok) {
    // A timeout or crash ends the episode with reward 0, as a tool exception does in EnvScaler.
    session.reward = 0;
    await table.end(session);
    return ok({
      observation: {
        content: { success: false, error: result.error.message, error_type: result.error.code },
        metadata: { episode_id: id, step_count: stepNumber, is_error: true },
      },
      reward: 0,
      done: true,
    });
  }
  if (!(await recordCall(table, session, { tool: action.tool_name, arguments: action.arguments }))) {
    await table.end(session);
    return ok({
      observation: {
        content: { success: false, error: NOT_RECORDED },
        metadata: { episode_id: id, step_count: stepNumber, is_error: true },
      },
      reward: null,
      done: true,
    });
  }
  const truncated = stepNumber >= maxSteps;
  if (truncated) {
    session.reward = 0;
    await table.end(session);
  }
  const metadata = {
    episode_id: id,
    step_count: stepNumber,
    ...("diff" in result.value ? { diff: result.value.diff } : {}),
    // The tool raised, or its call was refused (unknown tool, invalid arguments): MCP's isError.
    ...(result.value.isError ? { is_error: true } : {}),
    ...(truncated ? { truncated: true } : {}),
  };
  return ok({
    observation: { content: result.value.observation, metadata },
    reward: truncated ? 0 : null,
    done: truncated,
  });
}

const RECORD_BACKOFF_MS = [100, 500, 2000];

/**
 * Records a call that ran, in call order, before its answer leaves (episode-journal.ts). False
 * when the journal refused it (the episode moved to another replica, or an earlier call of it was
 * not recorded) or could not be reached after a few tries.
 */
function recordCall(table: SessionTable, session: Session, call: JournalCall): Promise<boolean> {
  const journal = table.opts.journal;
  if (!journal) return Promise.resolve(true);
  const before = session.recorded;
  session.recorded += 1;
  const attempt = async (): Promise<boolean> => {
    for (let i = 0; ; i++) {
      try {
        return await journal.record(session.id, before, call);
      } catch (e) {
        if (i >= RECORD_BACKOFF_MS.length) {
          console.error(`[serve] journal record ${session.id}:`, (e as Error).message);
          return false;
        }
        await new Promise((r) => setTimeout(r, RECORD_BACKOFF_MS[i]));
      }
    }
  };
  const recording = session.journalChain.then(attempt);
  session.journalChain = recording;
  return recording;
}

/** The submit: runs the scenario's checks and ends the episode with their reward. */
async function score(table: SessionTable, session: Session): Promise<StepReply> {
  const checks = session.episode ? await session.episode.check(session.scenario.checks) : null;
  const results = checks?.ok ? checks.value : [];
  // EnvScaler's reward: passing checks over all checks; an erroring check counts as failed.
  const passed = results.filter((r) => "passed" in r && r.passed).length;
  session.reward = session.scenario.checks.length
    ? Math.round((passed / session.scenario.checks.length) * 10_000) / 10_000
    : 0;
  await table.end(session);
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

function endedReply(session: Session, maxSteps: number): StepReply {
  const budget = !session.done && !session.submitted && session.stepCount >= maxSteps;
  return {
    observation: {
      content: {
        success: false,
        error: budget ? `the step budget of ${maxSteps} (ENVSTUDIO_SERVE_MAX_STEPS) is spent` : ENDED_MESSAGE,
      },
      metadata: { episode_id: session.id, step_count: session.stepCount, is_error: true },
    },
    reward: null,
    done: true,
  };
}
