import "server-only";
/** The `export.run` job: payload schema and definition (handler loaded lazily). */
import { z } from "zod";
import { defineJob } from "@/lib/jobs/job-definition";

export const ExportJobPayloadSchema = z.object({ exportId: z.string().min(1) });

export const exportJob = defineJob({
  name: "export.run",
  schema: ExportJobPayloadSchema,
  concurrency: 1,
  retryLimit: 2,
  handler: async (payload, ctx) => {
    const [{ getDb }, { runExport }] = await Promise.all([import("@/lib/db"), import("./run-export")]);
    return runExport(getDb(), payload.exportId, { signal: ctx.signal });
  },
});
