/** The import upload (POST /api/imports) and its reply. */
import { z } from "zod";
import {
  ImportedEnvironmentSchema,
  ImportErrorSchema,
  ImportWarningSchema,
  ON_EXISTING,
} from "./import.schema";

export const ImportFormSchema = z.object({
  className: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  envId: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  onExisting: z.enum(ON_EXISTING).default("refuse"),
});

/**
 * POST /api/imports answers 200 with either: a refused file is an expected outcome (data the
 * reviewer reads), with nothing written.
 */
export const ImportReplySchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    summary: z.object({
      environments: z.array(z.string()),
      scenarios: z.number(),
      imported: z.array(ImportedEnvironmentSchema),
      proofRunId: z.string().nullable(),
      warnings: z.array(ImportWarningSchema),
    }),
  }),
  z.object({ ok: z.literal(false), error: ImportErrorSchema.extend({ located: z.string() }) }),
]);
export type ImportReply = z.infer<typeof ImportReplySchema>;
