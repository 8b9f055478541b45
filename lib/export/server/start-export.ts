import "server-only";
/** Creates an Export row for a dataset version and enqueues the job that fills it. */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { enqueue, ensureQueues, startBoss } from "@/lib/jobs/boss";
import { emptyExportReason } from "../empty-export";
import { ExportFormatSchema } from "../export.schema";
import { SFT_ROW_FORMATS } from "../write-export";
import { countSftTrajectories } from "./count-export-rows";
import { exportJob } from "./export-job";
import { readEnv } from "../../env";

export const StartExportInputSchema = z.object({ datasetVersionId: z.string().min(1), format: ExportFormatSchema, createdById: z.string().nullable().optional() });

const cache = globalThis as unknown as { envstudioExportBoss?: Promise<Awaited<ReturnType<typeof startBoss>>> };

async function boss(url: string) {
  cache.envstudioExportBoss ??= startBoss(url, { supervise: false }).then(async (b) => {
    await ensureQueues(b, [exportJob]);
    return b;
  });
  return cache.envstudioExportBoss;
}

/** Stops the cached queue client (tests, and processes that shut down cleanly). */
export async function closeExportQueue(): Promise<void> {
  const pending = cache.envstudioExportBoss;
  cache.envstudioExportBoss = undefined;
  if (pending) await (await pending).stop({ graceful: false, timeout: 2_000 });
}

export async function startExport(db: Db, raw: z.input<typeof StartExportInputSchema>, url = readEnv("DATABASE_URL") ?? "") {
  const input = StartExportInputSchema.parse(raw);
  const version = await db.datasetVersion.findUnique({ where: { id: input.datasetVersionId }, select: { version: true } });
  if (!version) throw new AppError("NOT_FOUND", "Dataset version was not found.");
  // Refused up front with the reason, rather than a job that "succeeds" with an empty file.
  if (SFT_ROW_FORMATS.has(input.format) && (await countSftTrajectories(db, input.datasetVersionId)) === 0) {
    throw new AppError("INVALID_INPUT", emptyExportReason(input.format, version.version));
  }
  const row = await db.export.create({ data: { datasetVersionId: input.datasetVersionId, format: input.format, createdById: input.createdById ?? null } });
  await enqueue(await boss(url), exportJob, { exportId: row.id }, `export:${row.id}`);
  return row;
}
