import "server-only";
/** Handler of the `export.run` job (definition in lib/export/export-job.ts), loaded lazily by the worker. */
import type { JobHandler } from "@/lib/jobs/server/job-handler";
import type { EXPORT_JOB } from "../export-job";
import { runExport } from "./run-export";

export const handleExportJob: JobHandler<typeof EXPORT_JOB> = ({ exportId }, ctx) =>
  runExport(ctx.db, exportId, { signal: ctx.signal });
