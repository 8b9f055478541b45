import "server-only";
/** Reads of export rows for the dataset page and its polling route. */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { ExportView } from "../export-view";

export async function findDatasetExports(db: Db, datasetId: string): Promise<ExportView[]> {
  const rows = await db.export.findMany({
    where: { datasetVersion: { datasetId } },
    orderBy: { createdAt: "desc" },
    take: 50,
    include: { datasetVersion: { select: { version: true } } },
  });
  if (rows.length === 0 && (await db.dataset.count({ where: { id: datasetId } })) === 0)
    throw new AppError("NOT_FOUND", `Dataset ${datasetId} does not exist.`);
  return rows.map((r) => ({
    id: r.id,
    version: r.datasetVersion.version,
    format: r.format,
    status: r.status,
    processed: r.processed,
    total: r.total,
    // BigInt does not survive JSON; export folders stay far below 2^53 bytes.
    byteSize: r.byteSize === null ? null : Number(r.byteSize),
    errorMessage: r.errorMessage,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  }));
}
