/** The JSON shape of an export row for the dataset page and its polling route (no BigInt, ISO dates). */
import { z } from "zod";
import { ExportFormatSchema } from "./formats/registry";

export const ExportStatusSchema = z.enum(["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"]);
export type ExportStatusName = z.infer<typeof ExportStatusSchema>;

/** Answered by GET /api/datasets/:id/exports (a list, newest first). */
export const ExportViewSchema = z.object({
  id: z.string(),
  version: z.number(),
  format: ExportFormatSchema,
  status: ExportStatusSchema,
  processed: z.number(),
  total: z.number(),
  byteSize: z.number().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExportView = z.infer<typeof ExportViewSchema>;

export const isExportTerminal = (status: ExportStatusName) => status === "SUCCEEDED" || status === "FAILED";
