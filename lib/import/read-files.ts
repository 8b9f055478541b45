/**
 * Reads the files of an import into records, with located errors: EnvScaler env metadata (object
 * keyed by env_id, or a list), scenario files (lists), and Python environment folders
 * (environment.py + scenarios.json + optional meta.json).
 */
import type { z } from "zod";
import { type Result, err, ok } from "../core/result";
import {
  type ImportEnvItem,
  ImportEnvItemSchema,
  type ImportError,
  type ImportScenario,
  ImportScenarioSchema,
} from "./import.schema";
import { parseJsonLocated, topLevelLines } from "./json-locate";
import { issuePath } from "../core/zod-issues";

export type ImportFile = { name: string; text: string };

/** Files above this are refused before parsing (JSON.parse needs several times the size in memory). */
export const DEFAULT_MAX_IMPORT_BYTES = 200 * 1024 * 1024;

export function checkSize(file: ImportFile, maxBytes: number): ImportError | null {
  const bytes = Buffer.byteLength(file.text);
  return bytes > maxBytes
    ? {
        file: file.name,
        message: `file is ${bytes} bytes, over the import limit of ${maxBytes} (ENVSTUDIO_IMPORT_MAX_BYTES)`,
      }
    : null;
}

function parseRecords<S extends z.ZodType>(
  file: ImportFile,
  entries: [string, unknown][],
  schema: S,
  lines: number[],
): Result<z.infer<S>[], ImportError> {
  const out: z.infer<S>[] = [];
  for (const [i, [record, value]] of entries.entries()) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return err({
        file: file.name,
        line: lines[i],
        record,
        field: (issue && issuePath(issue)) || undefined,
        message: issue?.message ?? "invalid record",
      });
    }
    out.push(parsed.data);
  }
  return ok(out);
}

export function readEnvMetadata(file: ImportFile): Result<ImportEnvItem[], ImportError> {
  const json = parseJsonLocated(file.text, file.name);
  if (!json.ok) return json;
  const value = json.value;
  let entries: [string, unknown][];
  if (Array.isArray(value)) entries = value.map((v, i) => [String(i), v]);
  else if (value && typeof value === "object") entries = Object.entries(value);
  else
    return err({
      file: file.name,
      line: 1,
      message: "expected an object keyed by env_id (or a list of environments)",
    });
  const records = parseRecords(file, entries, ImportEnvItemSchema, topLevelLines(file.text));
  if (!records.ok) return records;
  // In the keyed form, the key is the env_id the scenarios refer to.
  for (const [i, item] of records.value.entries()) {
    const key = entries[i]?.[0];
    if (!Array.isArray(value) && key !== item.env_id)
      return err({
        file: file.name,
        record: key,
        field: "env_id",
        message: `does not match its key "${key}"`,
      });
  }
  return records;
}

export function readScenarios(file: ImportFile): Result<ImportScenario[], ImportError> {
  const json = parseJsonLocated(file.text, file.name);
  if (!json.ok) return json;
  if (!Array.isArray(json.value))
    return err({ file: file.name, line: 1, message: "expected a list of scenarios" });
  return parseRecords(
    file,
    json.value.map((v, i) => [String(i), v]),
    ImportScenarioSchema,
    topLevelLines(file.text),
  );
}

/** A Python environment folder → one env item (meta.json supplies the EnvScaler metadata). */
export function readPythonEnvironment(
  folder: string,
  source: ImportFile,
  meta: ImportFile | null,
  className: string | null,
): Result<ImportEnvItem, ImportError> {
  let metaValue: Record<string, unknown> = {};
  if (meta) {
    const json = parseJsonLocated(meta.text, meta.name, false);
    if (!json.ok) return json;
    if (!json.value || typeof json.value !== "object" || Array.isArray(json.value))
      return err({ file: meta.name, line: 1, message: "expected an object" });
    metaValue = json.value as Record<string, unknown>;
  }
  const name =
    className ??
    (typeof metaValue.env_class_name === "string"
      ? metaValue.env_class_name
      : /^class\s+(\w+)/m.exec(source.text)?.[1]);
  if (!name) return err({ file: source.name, message: "no class found (pass the class name)" });
  const parsed = ImportEnvItemSchema.safeParse({
    env_id: folder,
    ...metaValue,
    env_class_name: name,
    env_class_code: source.text,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({
      file: meta?.name ?? source.name,
      field: issue && issuePath(issue),
      message: issue?.message ?? "invalid metadata",
    });
  }
  return ok(parsed.data);
}
