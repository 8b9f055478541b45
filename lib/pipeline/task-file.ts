/**
 * Uploaded task sets: a JSON array or JSONL, of strings or of objects whose text lives in a field
 * the user picks. Pure (the upload's text in, tasks or a precise error out) so the UI, the CLI and
 * the action share one parser.
 */
import { type Result, err, ok } from "../core/result";

export type TaskFileError = {
  code: "EMPTY" | "INVALID_JSON" | "NO_TEXT_FIELD" | "BAD_ITEM";
  message: string;
  retryable: false;
};
export type ParsedTaskFile = { tasks: string[]; textFields: string[]; format: "json" | "jsonl" };

const fail = (code: TaskFileError["code"], message: string) =>
  err<TaskFileError>({ code, message, retryable: false });

function parseItems(text: string): Result<{ items: unknown[]; format: "json" | "jsonl" }, TaskFileError> {
  const trimmed = text.trim();
  if (!trimmed) return fail("EMPTY", "the file is empty");
  if (trimmed.startsWith("[")) {
    try {
      return ok({ items: JSON.parse(trimmed) as unknown[], format: "json" });
    } catch (e) {
      return fail("INVALID_JSON", `not a valid JSON array: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const items: unknown[] = [];
  const lines = trimmed.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    try {
      items.push(JSON.parse(line));
    } catch (e) {
      return fail(
        "INVALID_JSON",
        `line ${i + 1} is not valid JSON (expected a JSON array or one JSON value per line): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  return ok({ items, format: "jsonl" });
}

/** String-valued fields present in object items: the choices offered for `textField`. */
export function textFieldsOf(items: unknown[]): string[] {
  const fields = new Set<string>();
  for (const item of items.slice(0, 200)) {
    if (item && typeof item === "object" && !Array.isArray(item)) {
      for (const [k, v] of Object.entries(item)) if (typeof v === "string" && v.trim()) fields.add(k);
    }
  }
  return [...fields];
}

export function parseTaskFile(text: string, textField?: string): Result<ParsedTaskFile, TaskFileError> {
  const parsed = parseItems(text);
  if (!parsed.ok) return parsed;
  const { items, format } = parsed.value;
  if (items.length === 0) return fail("EMPTY", "the file has no tasks");
  const textFields = textFieldsOf(items);
  const tasks: string[] = [];
  for (const [i, item] of items.entries()) {
    if (typeof item === "string") {
      if (item.trim()) tasks.push(item.trim());
      continue;
    }
    if (!item || typeof item !== "object" || Array.isArray(item))
      return fail("BAD_ITEM", `item ${i + 1} is neither a string nor an object`);
    if (!textField)
      return fail(
        "NO_TEXT_FIELD",
        `the tasks are objects: pick the text field (one of: ${textFields.join(", ") || "none found"})`,
      );
    const value = (item as Record<string, unknown>)[textField];
    if (typeof value !== "string" || !value.trim())
      return fail("BAD_ITEM", `item ${i + 1} has no text in field '${textField}'`);
    tasks.push(value.trim());
  }
  if (tasks.length === 0) return fail("EMPTY", "the file has no non-empty tasks");
  // Exact duplicates are dropped in order (EnvScaler's set() lost the order; spec §12.4 #36).
  return ok({ tasks: [...new Set(tasks)], textFields, format });
}

/** Ideas typed or read from a text file: one per non-empty line. */
export function parseIdeas(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
}
