/**
 * TEST AND DEMO ONLY. Scripted agents and user simulators for rollouts: an agent that replays a scenario's
 * gold calls one per turn (counting the tool results already in its chat), optionally after some
 * invalid calls, then says "Task Completed"; a user who reveals the task and sends ###STOP###
 * once the agent reports back.
 */
import type { ChatBody, FakeReply } from "./server";
import { systemText } from "./server";

export type GoldCall = { name: string; arguments: Record<string, unknown> };

/** Plain calls as the model would send them; `raw` arguments are sent verbatim (may be bad JSON). */
export type ScriptedCall = { name: string; arguments: unknown };

export const isAgent = (body: ChatBody) => systemText(body).includes("[stage:agent]");
export const isUserSim = (body: ChatBody) => systemText(body).includes("[stage:user_simulator]");

export function agentReply(body: ChatBody, plan: ScriptedCall[], finalText = "Task Completed"): FakeReply {
  const done = body.messages.filter((m) => m.role === "tool").length;
  const next = plan[done];
  return next ? { toolCalls: [next] } : { content: finalText };
}

/** The user's turn: opening request, then STOP once the agent says it is done. */
export function userReply(body: ChatBody, task: string): FakeReply {
  const agentTurns = body.messages.filter((m) => m.role === "user");
  const last = agentTurns.at(-1)?.content ?? "";
  if (agentTurns.length <= 1) return { content: `# Thought:\nstart small\n# Reply:\n${task}` };
  if (/done|completed/i.test(last)) return { content: "# Thought:\nall good\n# Reply:\n###STOP###" };
  return { content: "# Thought:\nanswer the question\n# Reply:\nPlease just go ahead with what I asked." };
}

export const INVALID_CALLS: ScriptedCall[] = [
  { name: "teleport_book", arguments: { book_id: "B001" } },
  { name: "get_member", arguments: "{not json" },
  { name: "get_member", arguments: { member: 42 } },
];
