/**
 * zod schemas of what each target reads (docs/exports.md; OpenAI fine-tuning, LlamaFactory data/README,
 * HF `datasets`, verl tool_agent_loop, OpenEnv). Tests parse every exported row with them.
 */
import { z } from "zod";

const FunctionSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  parameters: z
    .object({ type: z.literal("object"), properties: z.record(z.string(), z.unknown()) })
    .passthrough(),
});
export const OpenAiToolSchema = z.object({ type: z.literal("function"), function: FunctionSchema });

export const EnvScalerEnvItemSchema = z.object({
  env_id: z.string(),
  environment_summary: z.string(),
  environment_introduction: z.string(),
  state_space_definition: z.array(
    z.object({ entity: z.string(), attributes: z.string(), description: z.string() }),
  ),
  constraints_rules: z.array(z.string()),
  operation_list: z.array(
    z.object({ operation_name: z.string(), operation_type: z.enum(["query", "state_change"]) }).passthrough(),
  ),
  env_class_name: z.string(),
  env_class_code: z.string(),
  env_class_def: z.string(),
  env_structure: z.unknown(),
  tools: z.array(OpenAiToolSchema),
});
export const EnvScalerScenarioSchema = z.object({
  env_id: z.string(),
  env_class_name: z.string(),
  task_id: z.string(),
  init_config: z.record(z.string(), z.unknown()),
  task: z.string(),
  checklist: z.array(z.string()),
  checklist_with_func: z.array(
    z.object({ check_item: z.string(), check_func: z.string().regex(/^def check_func\(final_state\):/) }),
  ),
});

const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    arguments: z.string().refine((s) => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    }, "arguments must be a JSON string"),
  }),
});
export const OpenAiFineTuneRowSchema = z
  .object({
    messages: z
      .array(
        z.discriminatedUnion("role", [
          z.object({ role: z.literal("system"), content: z.string() }).strict(),
          z.object({ role: z.literal("user"), content: z.string() }).strict(),
          z
            .object({
              role: z.literal("assistant"),
              content: z.string().nullable(),
              tool_calls: z.array(ToolCallSchema).optional(),
            })
            .strict(),
          z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }).strict(),
        ]),
      )
      .min(2),
    tools: z.array(OpenAiToolSchema),
    parallel_tool_calls: z.boolean().optional(),
  })
  .strict();

export const ShareGptRowSchema = z
  .object({
    conversations: z
      .array(
        z
          .object({ from: z.enum(["human", "gpt", "function_call", "observation"]), value: z.string() })
          .strict(),
      )
      .refine(
        (turns) => turns.every((t, i) => (t.from === "human" || t.from === "observation") === (i % 2 === 0)),
        "human/observation at even index, gpt/function_call at odd",
      ),
    system: z.string(),
    tools: z
      .string()
      .refine(
        (s) => z.array(FunctionSchema).safeParse(JSON.parse(s)).success,
        "tools must be a JSON string of bare function schemas",
      ),
  })
  .strict();
export const LlamaFactoryDatasetInfoSchema = z.record(
  z.string(),
  z.object({
    file_name: z.string(),
    formatting: z.literal("sharegpt"),
    columns: z.object({
      messages: z.literal("conversations"),
      system: z.literal("system"),
      tools: z.literal("tools"),
    }),
  }),
);

/** The `difficulty` object exports promise per scenario (docs/exports.md); ints may read back as BigInt. */
const count = z.union([z.number().int(), z.bigint()]);
const rate = z.number().min(0).max(1).nullable();
const FiguresSchema = z.object({
  n: count,
  successes: count,
  success_rate: rate,
  k: count,
  pass_at_k: rate,
  pass_hat_k: rate,
  mean_reward: z.number().nullable(),
  reward_variance: z.number().nullable(),
  group_size: count,
  p_signal: rate,
});
export const DifficultyExportSchema = FiguresSchema.extend({
  per_model: z.array(FiguresSchema.extend({ model: z.string() })),
}).strict();

export const HfRowSchema = z
  .object({
    env_id: z.string(),
    task_id: z.string(),
    env_class_name: z.string(),
    prompt: z.array(z.object({ role: z.string(), content: z.string() })),
    task: z.string(),
    init_config: z.string(),
    checklist: z.array(z.string()),
    checklist_with_func: z.array(z.object({ check_item: z.string(), check_func: z.string() })),
    split: z.enum(["train", "test"]),
    difficulty: DifficultyExportSchema.optional(),
    near_miss_strength: z.string().optional(),
  })
  .strict();

export const VerlRowSchema = z.object({
  data_source: z.string(),
  agent_name: z.literal("tool_agent"),
  prompt: z.array(z.object({ role: z.enum(["system", "user"]), content: z.string() })).min(1),
  ability: z.string(),
  reward_model: z.object({ style: z.literal("rule"), ground_truth: z.string() }),
  extra_info: z
    .object({
      split: z.string(),
      index: z.union([z.bigint(), z.number()]),
      need_tools_kwargs: z.literal(true),
      tools_kwargs: z.record(
        z.string(),
        z
          .object({ create_kwargs: z.object({ env_id: z.string(), task_id: z.string() }) })
          .nullable()
          .optional(),
      ),
      interaction_kwargs: z.object({ name: z.string(), task: z.string() }),
      difficulty: DifficultyExportSchema.optional(),
    })
    .passthrough(),
});
