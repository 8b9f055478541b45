/**
 * JSON parsing with locations: a syntax error becomes "line L, column C", and each top-level
 * record of an array or object gets the line it starts on, so shape errors can name a line too.
 */
import { type Result, err, ok } from "../core/result";
import type { ImportError } from "./import.schema";
import { findNumberHazard } from "./json-numbers";

export function lineColumnAt(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

/**
 * Parses `text`, or says where it is not JSON, or where a number in it would not be kept
 * (json-numbers.ts). `records`: the top level holds records (a list, or an object keyed by id), so
 * the location names the record and the field inside it; otherwise the whole path is the field.
 */
export function parseJsonLocated(text: string, file: string, records = true): Result<unknown, ImportError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const position = /position (\d+)/.exec(message)?.[1];
    const where = position ? lineColumnAt(text, Number(position)) : undefined;
    return err({
      file,
      line: where?.line,
      message: `not valid JSON${where ? ` (line ${where.line}, column ${where.column})` : ""}: ${message}`,
    });
  }
  const hazard = findNumberHazard(text);
  if (!hazard) return ok(value);
  const { line, column } = lineColumnAt(text, hazard.index);
  const [first, ...rest] = hazard.path;
  const location =
    records && first !== undefined
      ? { record: String(first), field: rest.length ? rest.join(".") : undefined }
      : { field: hazard.path.length ? hazard.path.join(".") : undefined };
  return err({ file, line, ...location, message: `${hazard.problem} (line ${line}, column ${column})` });
}

/** Line numbers where each top-level element (array) or entry (object) starts. */
export function topLevelLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectRecord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (expectRecord && depth === 1 && !/[\s,\]}]/.test(c)) {
      lines.push(line);
      expectRecord = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") expectRecord = ++depth === 1;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectRecord = true;
  }
  return lines;
}
