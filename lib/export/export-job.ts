/** The `export.run` job; its handler (lib/export/server/export-job-handler.ts) is loaded by the worker only. */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";

export const ExportJobPayloadSchema = z.object({ exportId: z.string().min(1) });

export const EXPORT_JOB = defineJob({
  name: "export.run",
  schema: ExportJobPayloadSchema,
  concurrency: 1,
  retryLimit: 2,
});
