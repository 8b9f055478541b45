/**
 * What the "new run" form (and the CLI) submit. Thresholds arrive as strings from the form and
 * are coerced here, once.
 */
import { z } from "zod";

const optionalNumber = z.preprocess(
  (v) => (v === "" || v === null || v === undefined ? undefined : v),
  z.coerce.number().positive().optional(),
);
const optionalModel = z.preprocess(
  (v) => (typeof v === "string" && v.trim() ? v.trim() : undefined),
  z.string().optional(),
);

export const StartRunFormSchema = z.object({
  name: z.string().trim().max(120).optional(),
  source: z.enum(["ideas", "tasks"]),
  ideas: z.string().optional(),
  taskFileText: z.string().optional(),
  taskFileName: z.string().optional(),
  textField: z.preprocess(
    (v) => (typeof v === "string" && v.trim() ? v.trim() : undefined),
    z.string().optional(),
  ),
  modelMain: optionalModel,
  modelCheck: optionalModel,
  modelEmbedding: optionalModel,
  minUsefulness: z.coerce.number().int().min(1).max(10).default(7),
  minModelability: z.coerce.number().int().min(1).max(10).default(7),
  qualityRounds: z.coerce.number().int().min(1).max(200).default(30),
  minNotFailRate: z.coerce.number().min(0).max(1).default(0.85),
  maxTokens: optionalNumber,
  maxCostUsd: optionalNumber,
});
export type StartRunForm = z.infer<typeof StartRunFormSchema>;
