/**
 * One model tool call against the sandboxed episode. Invalid calls (unknown tool, arguments that
 * are not a JSON object, arguments the tool's schema refuses) become error observations and the
 * episode goes on — EnvScaler ended the episode with reward 0 on any of these (spec §12.2 #18),
 * conflating agent mistakes with environment bugs. Only a sandbox failure (timeout, memory, the
 * environment's own crash) ends the episode, as "crash".
 */
import { z } from "zod";
import type { ToolCall } from "../llm";
import type { Episode, StateDiff } from "../sandbox";
import type { TrajectoryStep } from "./rollout.schema";

const EMPTY_DIFF: StateDiff = { added: [], removed: [], changed: [] };
const ArgsSchema = z.record(z.string(), z.unknown());

export type ToolStepOutcome = { step: Extract<TrajectoryStep, { type: "tool_call" }>; crashed: boolean };

function parseArguments(
  raw: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch (e) {
    return {
      ok: false,
      problem: `arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const parsed = ArgsSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: "arguments must be a JSON object" };
}

export async function runToolCall(episode: Episode, call: ToolCall, index: number): Promise<ToolStepOutcome> {
  const base = {
    type: "tool_call" as const,
    index,
    toolCallId: call.id,
    name: call.name,
    rawArguments: call.arguments,
  };
  const args = parseArguments(call.arguments);
  if (!args.ok) {
    const observation = { success: false, error: args.problem, error_type: "invalid_arguments" };
    return {
      step: {
        ...base,
        arguments: null,
        observation,
        isError: true,
        errorKind: "bad_arguments",
        diff: EMPTY_DIFF,
      },
      crashed: false,
    };
  }
  const result = await episode.step(call.name, args.value);
  if (!result.ok) {
    const observation = {
      success: false,
      error: `${result.error.code}: ${result.error.message}`,
      error_type: "environment_crash",
    };
    return {
      step: {
        ...base,
        arguments: args.value,
        observation,
        isError: true,
        errorKind: "crash",
        diff: EMPTY_DIFF,
      },
      crashed: true,
    };
  }
  const { observation, diff, isError } = result.value;
  return {
    step: {
      ...base,
      arguments: args.value,
      observation,
      isError,
      errorKind: isError ? classifyError(observation) : null,
      diff,
    },
    crashed: false,
  };
}

function classifyError(observation: unknown): "unknown_tool" | "bad_arguments" | "tool_error" {
  const type =
    typeof observation === "object" && observation !== null && "error_type" in observation
      ? String(observation.error_type)
      : "";
  if (type === "unknown_tool") return "unknown_tool";
  if (/argument/.test(type)) return "bad_arguments";
  return "tool_error";
}
