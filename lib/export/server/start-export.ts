import "server-only";
/** Creates an Export row for a dataset version and enqueues the job that fills it. */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { type JobSender, sendJob } from "@/lib/jobs/server/send-job";
import { emptyExportReason } from "../empty-export";
import { EXPORT_JOB } from "../export-job";
import { ExportFormatSchema, FORMATS } from "../formats/registry";
import { countSftTrajectories } from "./sft-trajectory-rule";

export const StartExportInputSchema = z.object({
  datasetVersionId: z.string().min(1),
  format: ExportFormatSchema,
  createdById: z.string().nullable().optional(),
});

export async function startExport(
  db: Db,
  raw: z.input<typeof StartExportInputSchema>,
  send: JobSender = sendJob,
) {
  const input = StartExportInputSchema.parse(raw);
  const version = await db.datasetVersion.findUnique({
    where: { id: input.datasetVersionId },
    select: { version: true },
  });
  if (!version) throw new AppError("NOT_FOUND", "Dataset version was not found.");
  // Refused up front with the reason, rather than a job that "succeeds" with an empty file.
  if (FORMATS[input.format].needs.sftRows && (await countSftTrajectories(db, input.datasetVersionId)) === 0) {
    throw new AppError("INVALID_INPUT", emptyExportReason(input.format, version.version));
  }
  const row = await db.export.create({
    data: {
      datasetVersionId: input.datasetVersionId,
      format: input.format,
      createdById: input.createdById ?? null,
    },
  });
  await send(EXPORT_JOB, { exportId: row.id }, `export:${row.id}`);
  return row;
}
