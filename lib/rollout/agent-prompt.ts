/**
 * Agent system prompts (spec §7.3). The agent sees the environment's introduction, rules and tools
 * — never the state schema or the code. Fix over EnvScaler (§12.1 #13): the non-conversational
 * prompt names both closing phrases it accepts.
 */
import type { RolloutMode } from "./rollout.schema";

export const AGENT_TAG = "[stage:agent]";

const NON_CONVERSATIONAL = `You are a helpful assistant that completes the given task step by step using the available tools.
At each step call exactly one tool with all required, valid parameters; do not call tools in parallel. Query before you modify, and adapt to what the tools return.
When the task is done, reply with only "Task Completed" and no tool call. If it cannot be done, reply with only "Task Failed".`;

const CONVERSATIONAL = `You are a helpful assistant that fulfils the user's requests with the available tools, communicating proactively until the user ends the conversation.
Ask the user for essential information that the tools cannot supply; otherwise call one tool with complete parameters. Never call a tool and talk to the user in the same step. Query before you modify.
When a request is done, report the result and ask whether anything else is needed.`;

export type EnvironmentBrief = { introduction: string; rules: string[] };

export function agentSystemPrompt(mode: RolloutMode, env: EnvironmentBrief): string {
  const rules = env.rules.length
    ? `\n## Environment Rules / Constraints:\n${env.rules.map((r) => `- ${r}`).join("\n")}`
    : "";
  const base = mode === "conversational" ? CONVERSATIONAL : NON_CONVERSATIONAL;
  return `${AGENT_TAG}\n${base}\n\nYou operate the following environment.\n# Environment Information\n## Brief Introduction:\n${env.introduction}${rules}`;
}
