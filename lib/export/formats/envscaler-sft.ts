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
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportEnvironment, ExportScenario, ExportTrajectory } from "../export.schema";
import { systemPrompt } from "./system-prompt";

export const SFT_TRAJ_FILES = { TRAIN: "sft_traj_train.json", TEST: "sft_traj_test.json" } as const;

export type EnvScalerSftRecord = {
  traj_type: string;
  task_info: { env_id: string; task_id: string; task: string };
  tools: string;
  messages: string;
  user_messages: string;
  steps: number;
};

/** EnvScaler's message shape: OpenAI wire keys, reasoning as `reasoning_content`, arguments as objects. */
function toEnvScalerMessage(m: ChatMessage): unknown {
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  if (m.role !== "assistant") return { role: m.role, content: m.content };
  const toolCalls = m.toolCalls?.length
    ? {
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.parse(c.arguments) as unknown },
        })),
      }
    : {};
  return { role: "assistant", content: m.content ?? "", reasoning_content: m.reasoning ?? "", ...toolCalls };
}

/** One record, or null when the trajectory cannot feed EnvScaler's SFT step (see above). */
export function toEnvScalerSftRecord(
  t: ExportTrajectory,
  s: ExportScenario,
  env: ExportEnvironment,
): EnvScalerSftRecord | null {
  if (t.messages.some((m) => m.role === "assistant" && (m.toolCalls?.length ?? 0) > 1)) return null;
  const withSystem: ChatMessage[] =
    t.messages[0]?.role === "system"
      ? t.messages
      : [{ role: "system", content: systemPrompt(env) }, ...t.messages];
  let body: unknown[];
  try {
    body = withSystem.map(toEnvScalerMessage);
  } catch {
    return null; // tool-call arguments that are not JSON
  }
  const users = withSystem
    .filter((m) => m.role === "user")
    .map((m) => ({ role: "user", content: m.content }));
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
