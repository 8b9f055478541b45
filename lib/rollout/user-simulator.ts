/**
 * The simulated user of conversational rollouts (spec §7.5): an LLM that holds the task, reveals
 * it gradually, and ends with ###STOP###. Roles are inverted for its chat — the agent's turns are
 * `user` messages prefixed "[Agent] ", its own replies are `assistant` messages. It sees only the
 * agent's words, never tools or state. Unlike EnvScaler, an unparsable reply is re-asked with the
 * problem and, if still bad, fails the rollout step instead of sending the agent an empty string.
 */
import { type Result, err, ok } from "../core/result";
import { type ChatMessage, type LlmClient, type LlmError, chatParsed, stripThinking } from "../llm";
import { STOP_TOKEN } from "./rollout.schema";

export const USER_SIM_TAG = "[stage:user_simulator]";
export const AGENT_GREETING = "Hi! How can I help you today?";

const system = (task: string) => `${USER_SIM_TAG}
You are a real person talking to a support agent who can operate a system for you. Your goal:
<task>
${task}
</task>
Rules: do not restate the whole goal at once; reveal sub-tasks and details gradually, when they are needed or asked for. Stay strictly within the goal: no extra requests, no invented facts. Keep names, identifiers and keywords exactly as written. If offered options, accept only those that match the goal. Do not repeat information unless asked. Speak naturally and briefly.
When the whole goal has been achieved, reply with ${STOP_TOKEN} alone.
Answer in this format:
# Thought:
<your private reasoning>
# Reply:
<what you say to the agent>`;

export type UserTurn = { text: string; stop: boolean };

export function parseUserReply(content: string | null): Result<UserTurn, string> {
  const text = stripThinking(content ?? "");
  if (text.includes(STOP_TOKEN)) return ok({ text: STOP_TOKEN, stop: true });
  const match = /#\s*Reply:\s*([\s\S]*)$/i.exec(text);
  const reply = match?.[1]?.trim();
  return reply
    ? ok({ text: reply, stop: false })
    : err(`no "# Reply:" section (or ${STOP_TOKEN}) in the answer`);
}

export type UserSimulator = {
  /** The simulator's chat so far (stored with the trajectory). */
  messages(): ChatMessage[];
  /** Answers the agent's words. */
  respond(agentText: string): Promise<Result<UserTurn, LlmError>>;
};

export function createUserSimulator(
  input: { task: string; model: string; temperature?: number; cacheSalt?: string },
  llm: LlmClient,
): UserSimulator {
  const chat: ChatMessage[] = [{ role: "system", content: system(input.task) }];
  return {
    messages: () => [...chat],
    async respond(agentText) {
      chat.push({ role: "user", content: `[Agent] ${agentText}` });
      const reply = await chatParsed(
        llm,
        {
          model: input.model,
          temperature: input.temperature ?? 0.7,
          cacheSalt: input.cacheSalt,
          purpose: "user simulator",
          messages: [...chat],
        },
        (r) => parseUserReply(r.content),
      );
      if (!reply.ok) return reply;
      const last = reply.value.replies.at(-1);
      chat.push({ role: "assistant", content: last?.content ?? reply.value.value.text });
      return ok(reply.value.value);
    },
  };
}
