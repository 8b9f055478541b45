/**
 * SFT filter (spec §7.7) over our stored trajectories: format, action count, completion, reward.
 * EnvScaler's filter expected inline <think> blocks its own agent no longer stored (§12.1 #12);
 * here "format" means what the trainer needs: every assistant turn acted, and every tool call named
 * a real tool with parsable, accepted arguments. Every failed rule is reported, not just the first.
 */
import type { ChatMessage } from "../llm";
import type { EndReason, RolloutMode, SftFilter, TrajectoryStep } from "./rollout.schema";

export type SftInput = {
  mode: RolloutMode;
  messages: ChatMessage[];
  steps: TrajectoryStep[];
  endReason: EndReason;
  reward: number;
  finalText: string | null;
};
export type SftVerdict = { pass: boolean; reasons: string[] };

export function applySftFilter(input: SftInput, filter: SftFilter): SftVerdict {
  const reasons: string[] = [];
  const calls = input.steps.filter((s) => s.type === "tool_call");
  if (filter.requireFormat) {
    const emptyTurns = input.messages.filter(
      (m) => m.role === "assistant" && !m.toolCalls?.length && !m.content?.trim(),
    ).length;
    if (emptyTurns > 0) reasons.push(`format: ${emptyTurns} empty assistant turn(s)`);
    const invalid = calls.filter(
      (c) => c.errorKind === "unknown_tool" || c.errorKind === "bad_arguments",
    ).length;
    if (invalid > 0) reasons.push(`format: ${invalid} invalid tool call(s)`);
  }
  if (calls.length < filter.minActions || calls.length > filter.maxActions)
    reasons.push(`actions: ${calls.length} outside ${filter.minActions}–${filter.maxActions}`);
  if (filter.requireCompletion) {
    const completed =
      input.mode === "conversational"
        ? input.endReason === "user_stopped"
        : input.endReason === "agent_replied" && (input.finalText ?? "").includes(filter.completionPhrase);
    if (!completed)
      reasons.push(
        input.mode === "conversational"
          ? "completion: the user did not end the conversation"
          : `completion: the agent did not reply "${filter.completionPhrase}"`,
      );
  }
  if (input.reward < filter.minReward) reasons.push(`reward: ${input.reward} below ${filter.minReward}`);
  return { pass: reasons.length === 0, reasons };
}
