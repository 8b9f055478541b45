/**
 * One leased environment instance. Calls are serialized (the harness answers one request at a
 * time). A TIMEOUT, MEMORY or crash ends the episode: its worker is recycled and later calls fail.
 */
import { type Result, err, ok } from "../core/result";
import type { HarnessRequest, Lease } from "./backend";
import type { SandboxOptions } from "./options";
import { endsEpisode, type Parsed, parseReply } from "./replies";
import {
  type CheckResult,
  ChecksInputSchema,
  DiffReplySchema,
  type JsonObject,
  type SandboxError,
  type StateDiff,
  ActReplySchema,
  StateReplySchema,
  StatesReplySchema,
  StepInputSchema,
  StepReplySchema,
  type Tool,
} from "./sandbox.schema";
import type { z } from "zod";
import { formatZodIssues } from "../core/zod-issues";

type ActReply = z.infer<typeof ActReplySchema>;

export type StepResult = ActResult & { diff: StateDiff };

/** A step without its state diff. */
export type ActResult = {
  /** The tool's return value as JSON, or an error observation `{success:false, error, error_type}`. */
  observation: unknown;
  isError: boolean;
  stdout: string;
  stderr: string;
};

export interface Episode {
  tools(): Tool[];
  step(name: string, args?: JsonObject): Promise<Result<StepResult, SandboxError>>;
  /** A step that skips the state diff: a third of a step's cost in wasm, and of no use to a
   * trainer. state(), diff() and check() are exact either way; a `step` after `act`s reports the
   * changes since the last step with a diff (or state read), theirs included. */
  act(name: string, args?: JsonObject): Promise<Result<ActResult, SandboxError>>;
  state(): Promise<Result<JsonObject, SandboxError>>;
  diff(): Promise<Result<StateDiff, SandboxError>>;
  check(checks: string[]): Promise<Result<CheckResult[], SandboxError>>;
  close(): Promise<void>;
}

/** Runs checks over given states in a worker of their own (the runner's runChecks). */
export type RunChecks = (request: {
  checks: string[];
  initialState: JsonObject;
  finalState: JsonObject;
}) => Promise<Result<CheckResult[], SandboxError>>;

/** `runChecks`: where the episode's checks run. Never in the environment's own interpreter, where
 * its code could have replaced what the checks rely on (json, builtins) and so forge the reward. */
export function createEpisode(
  lease: Lease,
  tools: Tool[],
  options: SandboxOptions,
  runChecks: RunChecks,
): Episode {
  let queue: Promise<unknown> = Promise.resolve();
  let ended: SandboxError | null = null;
  let closed = false;
  // The exact final state the last check was run over, until the next step: `state()` right after
  // a submit (the env server keeps it as the session's final snapshot) needs no second call.
  let checkedFinal: JsonObject | null = null;

  async function run<S extends z.ZodType>(
    request: HarnessRequest,
    timeoutMs: number,
    schema: S,
  ): Promise<Parsed<z.infer<S>>> {
    if (closed) return err({ code: "INVALID_REQUEST", message: "the episode is closed", retryable: false });
    if (ended)
      return err({
        code: "INVALID_REQUEST",
        message: `the episode ended after ${ended.code}: ${ended.message}`,
        retryable: false,
      });
    const result = parseReply(await lease.call(request, timeoutMs), schema);
    if (!result.ok && endsEpisode(result.error)) {
      ended = result.error;
      await lease.release(true);
    }
    return result;
  }

  /** Serializes calls; a caller firing steps concurrently gets them in order. */
  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  }

  const names = new Set(tools.map((t) => t.function.name));

  /** One tool call, with or without the diff (null without); callers hold the queue. */
  async function call(
    name: string,
    args: JsonObject,
    withDiff: boolean,
  ): Promise<Result<ActReply, SandboxError>> {
    const input = StepInputSchema.safeParse({ name, args });
    if (!input.success)
      return err({
        code: "INVALID_REQUEST",
        message: formatZodIssues(input.error, { max: 1, withPath: false }),
        retryable: false,
      });
    // Tools hidden by `load({tools})` are unknown here, before anything reaches the sandbox.
    if (!names.has(name))
      return ok({
        ok: true,
        observation: unknownTool(name, names),
        diff: EMPTY_DIFF,
        is_error: true,
        stdout: "",
        stderr: "",
      });
    checkedFinal = null;
    const reply = await run(
      { op: "step", name, arguments: input.data.args, ...(withDiff ? {} : { diff: false }) },
      options.stepTimeoutMs,
      withDiff ? StepReplySchema : ActReplySchema,
    );
    return reply.ok ? reply : stripCallError(reply.error);
  }

  return {
    tools: () => tools,
    step: (name, args = {}) =>
      enqueue(async () => {
        const reply = await call(name, args, true);
        if (!reply.ok) return reply;
        const { observation, diff, is_error: isError, stdout, stderr } = reply.value;
        // Parsed with StepReplySchema, so present.
        return ok({ observation, diff: diff ?? EMPTY_DIFF, isError, stdout, stderr });
      }),
    act: (name, args = {}) =>
      enqueue(async () => {
        const reply = await call(name, args, false);
        if (!reply.ok) return reply;
        const { observation, is_error: isError, stdout, stderr } = reply.value;
        return ok({ observation, isError, stdout, stderr });
      }),
    state: () =>
      enqueue(async () =>
        checkedFinal && !ended && !closed
          ? ok(checkedFinal)
          : mapOk(await run({ op: "state" }, options.queryTimeoutMs, StateReplySchema), (r) => r.state),
      ),
    diff: () =>
      enqueue(async () =>
        mapOk(await run({ op: "diff" }, options.queryTimeoutMs, DiffReplySchema), (r) => r.diff),
      ),
    check: (checks) =>
      enqueue(async () => {
        const input = ChecksInputSchema.safeParse(checks);
        if (!input.success)
          return err({
            code: "INVALID_REQUEST",
            message: "checks must be an array of strings",
            retryable: false,
          });
        const states = await run({ op: "states" }, options.queryTimeoutMs, StatesReplySchema);
        if (!states.ok) return stripCallError(states.error);
        return runChecks({
          checks: input.data,
          initialState: states.value.initial,
          finalState: states.value.final,
        });
      }),
    close: () =>
      enqueue(async () => {
        if (closed) return;
        closed = true;
        if (!ended) await lease.release(false);
      }),
  };
}

const EMPTY_DIFF: StateDiff = { added: [], removed: [], changed: [] };

function unknownTool(name: string, names: Set<string>) {
  return {
    success: false,
    error: `Unknown tool '${name}'. Available tools: ${[...names].sort().join(", ")}`,
    error_type: "unknown_tool",
  };
}

function mapOk<T, U>(result: Parsed<T>, f: (value: T) => U): Result<U, SandboxError> {
  return result.ok ? ok(f(result.value)) : stripCallError(result.error);
}

function stripCallError(error: SandboxError & { terminated?: boolean }) {
  return err({ code: error.code, message: error.message, retryable: error.retryable });
}
