/** The JSON shape of an export row for the dataset page and its polling route (no BigInt, ISO dates). */
import type { ExportFormatName } from "./export.schema";

export type ExportStatusName = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED";

export type ExportView = {
  id: string;
  version: number;
  format: ExportFormatName;
  status: ExportStatusName;
  processed: number;
  total: number;
  byteSize: number | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
};

export const isExportTerminal = (status: ExportStatusName) => status === "SUCCEEDED" || status === "FAILED";
