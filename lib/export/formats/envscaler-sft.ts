/**
 * EnvScaler SFT trajectory records, what RUC-NLPIR/EnvScaler 87e6673
 * sft/step1_process_messages_by_tool_template.py reads (process_hf_data, keep_think_history):
 * `{traj_type, task_info, tools, messages, user_messages, steps}` where tools, messages and
 * user_messages are JSON strings (the script json.loads each). Its keep_think_history pairs each
 * raw message with the chat-template output by position and calls `.strip()` on every assistant's
 * `reasoning_content`, so: a system message comes first (the template adds one for the tools),
 * every assistant message carries a string reasoning_content, and a turn with several tool calls
 * (the Qwen3 template merges their results into one turn) cannot be used — such trajectories are
 * skipped and counted. task_info is what EnvScaler's agent records: {env_id, task_id, task}.
 */
import type { ExportEnvironment, ExportScenario, ExportTrajectory } from "../export.schema";
import { type ChatMessage, contentString, normalizeToolCalls, parseMessages } from "../messages";
import { systemPrompt } from "./system-prompt";

export const SFT_TRAJ_FILES = { TRAIN: "sft_traj_train.json", TEST: "sft_traj_test.json" } as const;

export type EnvScalerSftRecord = { traj_type: string; task_info: { env_id: string; task_id: string; task: string }; tools: string; messages: string; user_messages: string; steps: number };

function structured(messages: ChatMessage[], calls: ReturnType<typeof normalizeToolCalls>["calls"]): unknown[] {
  return messages.map((m) => {
    if (m.role === "assistant") {
      const toolCalls = calls.get(m);
      return {
        role: "assistant", content: m.content ?? "", reasoning_content: m.reasoning_content ?? "",
        ...(toolCalls ? { tool_calls: toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown } })) } : {}),
      };
    }
    if (m.role === "tool") return { role: "tool", tool_call_id: m.tool_call_id, content: contentString(m.content) };
    return { role: m.role, content: m.content };
  });
}

/** One record, or null when the trajectory cannot feed EnvScaler's SFT step (see above). */
export function toEnvScalerSftRecord(t: ExportTrajectory, s: ExportScenario, env: ExportEnvironment): EnvScalerSftRecord | null {
  const parsed = parseMessages(t.messages);
  if (!parsed) return null;
  const { messages, calls } = normalizeToolCalls(parsed);
  if ([...calls.values()].some((c) => c.length > 1)) return null;
  const withSystem: ChatMessage[] = messages[0]?.role === "system" ? messages : [{ role: "system", content: systemPrompt(env) }, ...messages];
  let body: unknown[];
  try {
    body = structured(withSystem, calls);
  } catch {
    return null; // tool-call arguments that are not JSON
  }
  const users = withSystem.filter((m) => m.role === "user").map((m) => ({ role: "user", content: m.content }));
  return {
    traj_type: t.mode,
    task_info: { env_id: s.envId, task_id: s.taskId, task: s.task },
    tools: JSON.stringify(env.tools),
    messages: JSON.stringify(body),
    // EnvScaler fills user_messages only in conversational environments (its user simulator's turns).
    user_messages: JSON.stringify(t.mode === "conversational" ? users : null),
    steps: withSystem.filter((m) => m.role === "assistant").length,
  };
}
