/**
 * One rollout: an agent with OpenAI tool calling against a sandboxed episode (spec §7).
 * Non-conversational: the agent gets the task and the episode ends at its first plain-text reply
 * or at the step limit. Conversational: a simulated user holds the task and the episode ends when
 * it sends ###STOP###. Each assistant turn is one step. Tool responses use role "tool" with the
 * call id, never user messages (EnvScaler's protocol violation, §12.1 #11). The reward is the
 * fraction of checks passing on the final state, run by the sandbox's check runner.
 */
import { type Result, err, ok } from "../core/result";
import type { ChatMessage, LlmClient, LlmError } from "../llm";
import type { CheckResult, Episode, JsonObject, SandboxError, SandboxRunner, Tool } from "../sandbox";
import { type EnvironmentBrief, agentSystemPrompt } from "./agent-prompt";
import { applyRewardPolicy, scoreChecks } from "./reward";
import {
  DEFAULT_MAX_STEPS,
  type EndReason,
  type RewardPolicy,
  type RolloutMode,
  type TrajectoryStep,
} from "./rollout.schema";
import { runToolCall } from "./tool-step";
import { AGENT_GREETING, type UserSimulator, createUserSimulator } from "./user-simulator";

export type RolloutInput = {
  mode: RolloutMode;
  task: string;
  env: EnvironmentBrief & { source: string; className: string; tools: Tool[] };
  initialState: JsonObject;
  checks: string[];
  model: string;
  userModel?: string;
  maxSteps?: number;
  temperature?: number;
  policy: RewardPolicy;
  /** Distinguishes the k rollouts of a scenario in the LLM cache, so they are not k copies. */
  cacheSalt: string;
};

export type RolloutDeps = { llm: LlmClient; userLlm?: LlmClient; sandbox: Pick<SandboxRunner, "load"> };

export type RolloutRecord = {
  messages: ChatMessage[];
  userMessages: ChatMessage[];
  steps: TrajectoryStep[];
  stepCount: number;
  endReason: EndReason;
  finalText: string | null;
  finalState: JsonObject | null;
  checkResults: CheckResult[];
  score: number;
  reward: number;
};

export type RolloutError = (LlmError | SandboxError) & { source: "agent" | "user" | "sandbox" };

type Loop = {
  messages: ChatMessage[];
  steps: TrajectoryStep[];
  turns: number;
  end: EndReason | null;
  finalText: string | null;
  user: UserSimulator | null;
};

export async function runRollout(
  input: RolloutInput,
  deps: RolloutDeps,
): Promise<Result<RolloutRecord, RolloutError>> {
  const loaded = await deps.sandbox.load({
    source: input.env.source,
    className: input.env.className,
    initialState: input.initialState,
  });
  if (!loaded.ok) return err({ ...loaded.error, source: "sandbox" });
  const episode = loaded.value;
  let played: Played;
  try {
    const initial = await episode.state();
    if (!initial.ok) return err({ ...initial.error, source: "sandbox" });
    const loop = await openLoop(input, deps);
    if (!loop.ok) return loop;
    const ran = await runTurns(input, deps, episode, loop.value);
    if (!ran.ok) return ran;
    const final = loop.value.end === "crashed" ? null : await episode.state();
    // Checks run inside the episode (its initial snapshot is `initial_state`): a separate
    // runChecks would lease a second worker while holding this one — a deadlock once every worker
    // is held by an episode — and would boot a fresh worker per checklist.
    const checks = final?.ok ? await episode.check(input.checks) : null;
    played = { loop: loop.value, final: final?.ok ? final.value : null, checks };
  } finally {
    await episode.close();
  }
  return ok(finish(input, played));
}

async function openLoop(input: RolloutInput, deps: RolloutDeps): Promise<Result<Loop, RolloutError>> {
  const system: ChatMessage = { role: "system", content: agentSystemPrompt(input.mode, input.env) };
  const loop: Loop = { messages: [system], steps: [], turns: 0, end: null, finalText: null, user: null };
  if (input.mode === "non_conversational") {
    loop.messages.push({ role: "user", content: input.task });
    return ok(loop);
  }
  // The user speaks first, answering the agent's fixed greeting (spec §7.5).
  loop.user = createUserSimulator(
    { task: input.task, model: input.userModel ?? input.model, cacheSalt: input.cacheSalt },
    deps.userLlm ?? deps.llm,
  );
  const opening = await loop.user.respond(AGENT_GREETING);
  if (!opening.ok) return err({ ...opening.error, source: "user" });
  loop.messages.push({ role: "user", content: opening.value.text });
  return ok(loop);
}

async function runTurns(
  input: RolloutInput,
  deps: RolloutDeps,
  episode: Episode,
  loop: Loop,
): Promise<Result<void, RolloutError>> {
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS[input.mode];
  while (loop.end === null) {
    if (loop.turns >= maxSteps) {
      loop.end = "step_limit";
      break;
    }
    loop.turns += 1;
    const reply = await deps.llm.chat({
      model: input.model,
      messages: loop.messages,
      tools: input.env.tools,
      toolChoice: "auto",
      temperature: input.temperature,
      cacheSalt: `${input.cacheSalt}:turn${loop.turns}`,
      purpose: `agent turn ${loop.turns}`,
    });
    if (!reply.ok) return err({ ...reply.error, source: "agent" });
    const { content, toolCalls } = reply.value;
    loop.messages.push({ role: "assistant", content, ...(toolCalls.length ? { toolCalls } : {}) });
    const turn = toolCalls.length
      ? await actOnTools(episode, loop, toolCalls)
      : await actOnText(input, loop, content ?? "");
    if (!turn.ok) return turn;
  }
  return ok(undefined);
}

async function actOnTools(
  episode: Episode,
  loop: Loop,
  calls: NonNullable<Extract<ChatMessage, { role: "assistant" }>["toolCalls"]>,
): Promise<Result<void, RolloutError>> {
  for (const call of calls) {
    const { step, crashed } = await runToolCall(episode, call, loop.steps.length);
    loop.steps.push(step);
    loop.messages.push({ role: "tool", toolCallId: call.id, content: JSON.stringify(step.observation) });
    if (crashed) {
      loop.end = "crashed";
      break;
    }
  }
  return ok(undefined);
}

async function actOnText(input: RolloutInput, loop: Loop, text: string): Promise<Result<void, RolloutError>> {
  if (!loop.user) {
    // Any plain-text reply ends a non-conversational episode (spec §7.4), even an empty one.
    loop.steps.push({ type: "message", index: loop.steps.length, content: text, userReply: null });
    loop.end = "agent_replied";
    loop.finalText = text;
    return ok(undefined);
  }
  const answer = await loop.user.respond(text);
  if (!answer.ok) return err({ ...answer.error, source: "user" });
  loop.steps.push({ type: "message", index: loop.steps.length, content: text, userReply: answer.value.text });
  if (answer.value.stop) {
    loop.end = "user_stopped";
    loop.finalText = text;
  } else loop.messages.push({ role: "user", content: answer.value.text });
  return ok(undefined);
}

type Played = { loop: Loop; final: JsonObject | null; checks: Result<CheckResult[], SandboxError> | null };

function finish(input: RolloutInput, played: Played): RolloutRecord {
  const { loop, final: finalState, checks } = played;
  const end = loop.end ?? "step_limit";
  let checkResults: CheckResult[] = [];
  if (checks)
    checkResults = checks.ok
      ? checks.value
      : input.checks.map(() => ({ error: `${checks.error.code}: ${checks.error.message}` }));
  const score = scoreChecks(checkResults);
  return {
    messages: loop.messages,
    userMessages: loop.user?.messages() ?? [],
    steps: loop.steps,
    stepCount: loop.turns,
    endReason: end,
    finalText: loop.finalText,
    finalState,
    checkResults,
    score,
    reward: applyRewardPolicy(score, end, input.policy),
  };
}
