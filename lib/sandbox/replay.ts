/**
 * Replays recorded episodes (JSON lines) through a SandboxRunner: the engine behind
 * `envstudio env replay`. Output is one result per input line, in input order; one bad line
 * never stops the others.
 */
import { z } from "zod";
import type { SandboxRunner } from "./runner";
import {
  type CheckResult,
  type ReplayEpisode,
  ReplayEpisodeSchema,
  type SandboxError,
  type StateDiff,
} from "./sandbox.schema";
import { formatZodIssues } from "../core/zod-issues";

/**
 * Runner options for a batch replay with `concurrency` episodes in flight: episodes of one source
 * share workers (up to `concurrency` of them), and at least four workers stay booted, so a batch
 * that alternates between a few large classes keeps each one's worker warm instead of evicting it
 * and preparing the class again on every switch (~1 s for a 150 KB class in Pyodide).
 */
export function replayRunnerOptions(concurrency: number): { poolSize: number; workersPerSource: number } {
  return { poolSize: Math.max(concurrency, 4), workersPerSource: concurrency };
}

export type ReplayResult = {
  id: string | number | null;
  observations: unknown[];
  state_diffs: StateDiff[];
  final_state: Record<string, unknown> | null;
  check_results?: CheckResult[];
  error?: { code: SandboxError["code"]; message: string };
};

const failed = (id: ReplayResult["id"], code: SandboxError["code"], message: string): ReplayResult => ({
  id,
  observations: [],
  state_diffs: [],
  final_state: null,
  error: { code, message },
});

export function parseEpisodeLine(line: string, lineNumber: number): ReplayEpisode | ReplayResult {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return failed(null, "INVALID_REQUEST", `line ${lineNumber}: not valid JSON`);
  }
  const parsed = ReplayEpisodeSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const id = z.object({ id: z.union([z.string(), z.number()]) }).safeParse(json);
  const issues = formatZodIssues(parsed.error, { root: "episode" });
  return failed(id.success ? id.data.id : null, "INVALID_REQUEST", `line ${lineNumber}: ${issues}`);
}

export async function replayEpisode(runner: SandboxRunner, episode: ReplayEpisode): Promise<ReplayResult> {
  const loaded = await runner.load({
    source: episode.source,
    className: episode.class_name,
    initialState: episode.init,
  });
  if (!loaded.ok) return failed(episode.id, loaded.error.code, loaded.error.message);
  const env = loaded.value;
  const result: ReplayResult = { id: episode.id, observations: [], state_diffs: [], final_state: null };
  try {
    for (const call of episode.calls) {
      const step = await env.step(call.name, call.arguments);
      if (!step.ok) {
        result.error = {
          code: step.error.code,
          message: `call ${result.observations.length + 1} (${call.name}): ${step.error.message}`,
        };
        break;
      }
      result.observations.push(step.value.observation);
      result.state_diffs.push(step.value.diff);
    }
    const state = await env.state();
    if (state.ok) result.final_state = state.value;
    else result.error ??= { code: state.error.code, message: state.error.message };
    if (episode.checks && !result.error) {
      const checks = await env.check(episode.checks);
      if (checks.ok) result.check_results = checks.value;
      else result.error = { code: checks.error.code, message: checks.error.message };
    }
  } finally {
    await env.close();
  }
  return result;
}

/** Runs up to `concurrency` episodes at once and yields results in input order. */
export async function* replayEpisodes(
  runner: SandboxRunner,
  lines: AsyncIterable<string>,
  concurrency: number,
): AsyncGenerator<ReplayResult> {
  const inFlight: Promise<ReplayResult>[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (!line.trim()) continue;
    const parsed = parseEpisodeLine(line, lineNumber);
    inFlight.push(
      "source" in parsed
        ? replayEpisode(runner, parsed).catch((e: unknown) =>
            failed(parsed.id, "SANDBOX_UNAVAILABLE", String(e)),
          )
        : Promise.resolve(parsed),
    );
    if (inFlight.length >= concurrency) yield await (inFlight.shift() as Promise<ReplayResult>);
  }
  while (inFlight.length > 0) yield await (inFlight.shift() as Promise<ReplayResult>);
}
