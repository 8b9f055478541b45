/**
 * The rollout domain's vocabulary: modes, reward policy, SFT filter config, and the per-step record
 * stored in Trajectory.steps. Run configs arrive from forms and job payloads, so they are schemas
 * with EnvScaler's defaults (spec §7.1, §7.4, §7.7).
 */
import { z } from "zod";
import { ChatMessageSchema } from "../llm/llm.schema";
import { type CheckResultSchema, StateDiffSchema } from "../sandbox/sandbox.schema";

export const RolloutModeSchema = z.enum(["non_conversational", "conversational"]);
export type RolloutMode = z.infer<typeof RolloutModeSchema>;

/** EnvScaler: 30 steps without a user simulator, 40 with one (spec §7.1). */
export const DEFAULT_MAX_STEPS: Record<RolloutMode, number> = { non_conversational: 30, conversational: 40 };
export const STOP_TOKEN = "###STOP###";

/** What an episode that hit the step limit or crashed earns: EnvScaler gives 0 ("zero"). */
export const RewardPolicySchema = z.object({
  onTruncated: z.enum(["zero", "score"]).default("zero"),
  onCrash: z.enum(["zero", "score"]).default("zero"),
});
export type RewardPolicy = z.infer<typeof RewardPolicySchema>;

/** EnvScaler's SFT filter (spec §7.7), with its fixed numbers made settings and a reward gate added. */
export const SftFilterSchema = z.object({
  /** Every assistant turn has a tool call or text, and every tool call named a tool and parsed. */
  requireFormat: z.boolean().default(true),
  /** Tool calls per trajectory; EnvScaler: non-conv 3–29, conv 5–39 assistant turns. */
  minActions: z.number().int().min(0).default(3),
  maxActions: z.number().int().min(1).default(29),
  /** Non-conv: ended by a text reply containing `completionPhrase`; conv: the user sent STOP. */
  requireCompletion: z.boolean().default(true),
  completionPhrase: z.string().default("Task Completed"),
  minReward: z.number().min(0).max(1).default(1),
});
export type SftFilter = z.infer<typeof SftFilterSchema>;

export const TrajectoryStepSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("tool_call"),
    index: z.number().int(),
    toolCallId: z.string(),
    name: z.string(),
    /** Arguments as the model wrote them (may be unparsable). */
    rawArguments: z.string(),
    arguments: z.record(z.string(), z.unknown()).nullable(),
    observation: z.unknown(),
    isError: z.boolean(),
    /** Why the call was refused before or by the environment; null for a successful call. */
    errorKind: z.enum(["unknown_tool", "bad_arguments", "tool_error", "crash"]).nullable(),
    diff: StateDiffSchema,
  }),
  z.object({
    type: z.literal("message"),
    index: z.number().int(),
    content: z.string(),
    userReply: z.string().nullable(),
  }),
]);
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const EndReasonSchema = z.enum(["agent_replied", "user_stopped", "step_limit", "crashed"]);
export type EndReason = z.infer<typeof EndReasonSchema>;

/**
 * What Trajectory.messages holds: the agent's chat (system, user, assistant with tool calls, tool
 * results) and the simulated user's own chat, in the LLM domain's one message type. Written by the
 * rollout run, read by the trajectory viewer and the SFT exporters through `readTrajectoryMessages`.
 */
export const TrajectoryMessagesSchema = z.object({
  agent: z.array(ChatMessageSchema),
  user: z.array(ChatMessageSchema).default([]),
  endReason: EndReasonSchema.nullable().default(null),
  finalText: z.string().nullable().default(null),
  score: z.number().nullable().default(null),
});
export type TrajectoryMessages = z.infer<typeof TrajectoryMessagesSchema>;

export type CheckOutcome = z.infer<typeof CheckResultSchema>;
