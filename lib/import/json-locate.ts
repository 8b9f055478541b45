/**
 * JSON parsing with locations: a syntax error becomes "line L, column C", and each top-level
 * record of an array or object gets the line it starts on, so shape errors can name a line too.
 */
import { type Result, err, ok } from "../core/result";
import type { ImportError } from "./import.schema";

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

export function parseJsonLocated(text: string, file: string): Result<unknown, ImportError> {
  try {
    return ok(JSON.parse(text));
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
