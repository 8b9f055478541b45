/**
 * The one way a string reaches generated Python: names are checked to be identifiers and emitted
 * as they are, every other string becomes an escaped literal. Generated files hold text from
 * environment code, import files and reviewers (tool descriptions, enum values, names); a string
 * spliced into source unescaped can close its literal and run code on the trainer's machine,
 * where no reviewer reads it. Literals are printable ASCII (ascii-escape.ts).
 */
import { escapeAscii } from "./ascii-escape";

/** Hard keywords plus `__debug__`, which Python refuses to bind. Soft keywords (match, case, type,
 * _) are valid names. From Python 3.11–3.13 `keyword.kwlist`. */
const PY_RESERVED = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "__debug__",
]);

/**
 * ASCII only: OpenAI-compatible function names are `[A-Za-z0-9_-]`, and Python NFKC-normalises
 * non-ASCII identifiers, so `ﬁle` in a schema would name the method `file`.
 */
const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const isPyIdentifier = (name: string): boolean =>
  ASCII_IDENTIFIER.test(name) && !PY_RESERVED.has(name);

/** Why `name` cannot be a Python name, or null when it can. */
export function pyIdentifierProblem(name: unknown): string | null {
  if (typeof name !== "string") return "is not a string";
  if (PY_RESERVED.has(name)) return `${JSON.stringify(name)} is a Python keyword`;
  if (!ASCII_IDENTIFIER.test(name))
    return `${JSON.stringify(name)} is not a Python identifier (ASCII letters, digits and _, not starting with a digit)`;
  return null;
}

/** A value generated code cannot hold safely: a name that is not an identifier, a literal Python has no spelling for. */
export class UnsafeSourceError extends Error {
  constructor(
    readonly what: string,
    readonly problem: string,
  ) {
    super(`${what}: ${problem}`);
    this.name = "UnsafeSourceError";
  }
}

export function pyIdentifier(name: string, what = "name"): string {
  const problem = pyIdentifierProblem(name);
  if (problem) throw new UnsafeSourceError(what, problem);
  return name;
}

/** A Python string literal whose value is exactly `value`. */
export const pyString = (value: string): string => `"${escapeAscii(value, true)}"`;

/**
 * A docstring of `lines`: each line escaped as in pyString (so its value is exactly the text);
 * lines after the first are indented unless blank; the closing quotes go on their own line when
 * `closeOnOwnLine` (a multi-line docstring always closes on its own line).
 */
export function pyDocstring(lines: readonly string[], indent = "", closeOnOwnLine = false): string {
  const [first = "", ...rest] = lines.map((line) => escapeAscii(line, true));
  const body = [first, ...rest.map((line) => (line ? indent + line : ""))].join("\n");
  return rest.length || closeOnOwnLine ? `"""${body}\n${indent}"""` : `"""${body}"""`;
}

/** A Python literal for a JSON scalar (a `Literal[...]` member). */
export function pyLiteral(value: unknown, what = "value"): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return pyString(value);
  if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
  throw new UnsafeSourceError(
    what,
    `${JSON.stringify(value) ?? `a ${typeof value}`} cannot be a Python literal`,
  );
}
