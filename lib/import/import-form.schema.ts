/** The import upload (POST /api/imports) and its reply. */
import { z } from "zod";
import { ON_EXISTING, type ImportError, type ImportWarning, type ImportedEnvironment } from "./import.schema";

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

export type ImportReply =
  | {
      ok: true;
      summary: {
        environments: string[];
        scenarios: number;
        imported: ImportedEnvironment[];
        proofRunId: string | null;
        warnings: ImportWarning[];
      };
    }
  | { ok: false; error: ImportError & { located: string } };
