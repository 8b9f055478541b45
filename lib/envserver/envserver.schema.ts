/**
 * Wire format of the RL environment server, following OpenEnv's reset/step/state contract
 * (docs/envserver.md): bodies for POST /reset and /step, WebSocket messages, and the action
 * (`{tool_name, arguments}`, or MCP-style `{type: "call_tool" | "list_tools"}`).
 */
import { z } from "zod";

export const ActionSchema = z.union([
  z.object({ type: z.literal("list_tools") }),
  z.object({
    type: z.literal("call_tool").optional(),
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  }),
]);
export type Action = z.infer<typeof ActionSchema>;

// Bounds as upstream's ResetRequest / StepRequest (openenv/core/env_server/types.py): seed ≥ 0,
// ids ≤ 255 characters, extra fields allowed.
export const ResetBodySchema = z
  .object({
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    episode_id: z.string().min(1).max(255).optional(),
    /** HTTP only: re-resetting an existing episode_id needs the key its first reset returned. A key
     * a client picks itself must be as hard to guess as the ones the server hands out. */
    session_key: z.string().min(16, "session_key must be at least 16 characters").max(255).optional(),
    /** The scenario (task_id, or env_id/task_id) to load; picked by seed when omitted. */
    scenario_id: z.string().optional(),
    /** Each step's observation carries the state diff in `metadata.diff`. Off unless asked: a
     * trainer has no use for it, and it is about a third of a step's cost in the sandbox. */
    diff: z.boolean().optional(),
    /** The Task API's way to pick a scenario: a split and an index in it (both, or neither). */
    split: z.enum(["train", "test"]).optional(),
    index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .passthrough()
  .refine((b) => (b.split === undefined) === (b.index === undefined), {
    message: "split and index go together (the Task API's split and task index)",
    path: ["index"],
  })
  .refine((b) => b.split === undefined || b.scenario_id === undefined, {
    message: "name a scenario by scenario_id or by split and index, not both",
    path: ["scenario_id"],
  });
export type ResetBody = z.infer<typeof ResetBodySchema>;

export const StepBodySchema = z
  .object({
    action: ActionSchema,
    timeout_s: z.number().positive().optional(),
    request_id: z.string().max(255).optional(),
    /** HTTP only: the episode to act on and its key (both from the reset observation's metadata). */
    episode_id: z.string().max(255).optional(),
    session_key: z.string().max(255).optional(),
  })
  .passthrough();

export const WsMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reset"), data: ResetBodySchema.default({}) }),
  z.object({ type: z.literal("step"), data: ActionSchema }),
  z.object({ type: z.literal("state") }),
  z.object({ type: z.literal("close") }),
  /** Upstream's WSMCPMessage: a JSON-RPC request for this connection's session. */
  z.object({ type: z.literal("mcp"), data: z.unknown() }),
]);

export type StepReply = {
  observation: { content: unknown; tools?: unknown[]; metadata: Record<string, unknown> };
  reward: number | null;
  done: boolean;
};

/** The terminal tool: ends the episode and runs the validators for the reward. */
export const SUBMIT_TOOL = "submit";
export const SUBMIT_SCHEMA = {
  type: "function",
  function: {
    name: SUBMIT_TOOL,
    description: "Finish the task: ends the episode and scores the checklist.",
    parameters: { type: "object", properties: {}, required: [] },
  },
} as const;

type FunctionTool = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

/**
 * The tools an observation lists: each an OpenAI function object that also carries MCP's tool
 * fields (`name`, `description`, `inputSchema`). Upstream's MCPToolClient reads the latter
 * (`_tool_from_payload`), OpenAI-style agents the former; each ignores the other's keys.
 */
export function observedTools(scenario: { tools: readonly FunctionTool[] }) {
  return [...scenario.tools, SUBMIT_SCHEMA].map((t) => ({
    ...t,
    name: t.function.name,
    description: t.function.description,
    inputSchema: t.function.parameters,
  }));
}
