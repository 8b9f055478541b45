/** Inputs of the launch forms on an environment page (parsed in the actions, again in the domain). */
import { z } from "zod";
import { RolloutModeSchema } from "../rollout/rollout.schema";

export const LaunchGenerationSchema = z.object({
  environmentId: z.string().min(1),
  count: z.coerce.number().int().min(1).max(200).default(10),
  model: z.string().trim().min(1).optional(),
});
export type LaunchGeneration = z.infer<typeof LaunchGenerationSchema>;

export const LaunchRolloutsSchema = z.object({
  environmentId: z.string().min(1),
  models: z
    .string()
    .trim()
    .min(1, "name at least one model")
    .transform((s) =>
      s
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  k: z.coerce.number().int().min(1).max(32).default(1),
  mode: RolloutModeSchema.default("non_conversational"),
  userModel: z
    .string()
    .trim()
    .optional()
    .transform((s) => s || null),
  /** A form sends "true"/"false" (a select), code sends a boolean. */
  verifiedOnly: z
    .union([z.boolean(), z.enum(["true", "false"])])
    .default(true)
    .transform((v) => v === true || v === "true"),
});
export type LaunchRollouts = z.infer<typeof LaunchRolloutsSchema>;

export const LaunchProofSchema = z.object({ environmentId: z.string().min(1) });
