/** The import upload (POST /api/imports) and its reply. */
import { z } from "zod";
import type { ImportError } from "./import.schema";

export const ImportFormSchema = z.object({
  className: z.string().trim().optional().transform((v) => v || undefined),
  envId: z.string().trim().optional().transform((v) => v || undefined),
});

export type ImportReply =
  | { ok: true; summary: { environments: string[]; scenarios: number; proofRunId: string | null } }
  | { ok: false; error: ImportError & { located: string } };
