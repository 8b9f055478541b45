/** Runs python3 for the trainer contract tests: a harness file from ./upstream or inline code. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import type { ExportFormatName, ExportInput } from "../export.schema";
import { createDirSink } from "../sink";
import { writeExport } from "../write-export";

export const UPSTREAM = path.join(import.meta.dirname, "upstream");

export function runPython(args: string[], stdin = "", cwd?: string): string {
  return execFileSync("python3", args, {
    input: stdin,
    encoding: "utf8",
    cwd,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
}

export function runHarness<T>(harness: string, args: string[], job: unknown): T {
  const out = runPython(
    [path.join(UPSTREAM, harness), ...args],
    JSON.stringify(job, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)),
  );
  return JSON.parse(out.trim().split("\n").pop() ?? "null") as T;
}

export async function exportFixture(format: ExportFormatName, input: ExportInput): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), `contract-${format}-`));
  await writeExport(format, input, createDirSink(dir));
  return dir;
}

export async function readParquet(file: string): Promise<Record<string, unknown>[]> {
  const buffer = readFileSync(file);
  return parquetReadObjects({
    file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
  });
}
