/**
 * Numbers an import would change without saying so. JSON text is parsed into 64-bit floats here
 * and stored as such, while the environments that read the state are Python, whose `json` keeps
 * any integer exactly: `12345678901234567891` would become `12345678901234567000`, `1e999` would be
 * stored as `null` (JSON has no infinity), and `-0.0` as `0`. Such a number is refused with its
 * location instead. Integers within ±(2^53 − 1) (RFC 8259's interoperable range) and every other
 * float are kept exactly: Python reads the same 64-bit value from the digits written back.
 */

export type JsonPath = (string | number)[];
export type NumberHazard = { index: number; path: JsonPath; token: string; problem: string };

const MAX_SAFE = 2n ** 53n - 1n;

/** Why this number token would not survive, or null when it does. */
export function numberProblem(token: string): string | null {
  if (!/[.eE]/.test(token)) {
    const value = BigInt(token);
    return value > MAX_SAFE || value < -MAX_SAFE
      ? `the integer ${token} is beyond ±9007199254740991 (2^53 − 1) and would lose precision; write it as a string`
      : null; // "-0" is the integer 0, as Python reads it too
  }
  const value = Number(token);
  if (!Number.isFinite(value))
    return `the number ${token} is beyond the 64-bit float range and would be stored as null`;
  if (Object.is(value, -0)) return `the number ${token} is negative zero and would be stored as 0`;
  return null;
}

/** Cheap test on the raw text: without any of these, no number can be a hazard. */
const MAYBE_HAZARD = /\d{16}|[eE][+-]?\d{3}|-0/;

/** Index just past the string that starts at `start` (an opening quote). */
function endOfString(text: string, start: number): number {
  for (let from = start + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

const isNumberStart = (c: number) => c === 45 || (c >= 48 && c <= 57);
const NUMBER_CHAR = /[0-9.eE+-]/;

/** The first number of `text` (valid JSON) that would not survive the import, with its JSON path. */
export function findNumberHazard(text: string): NumberHazard | null {
  if (!MAYBE_HAZARD.test(text)) return null;
  const path: JsonPath = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = endOfString(text, i);
      if (expectKey) path[path.length - 1] = JSON.parse(text.slice(i, end)) as string;
      expectKey = false;
      i = end - 1;
    } else if (c === 123 || c === 91) {
      inObject.push(c === 123);
      path.push(c === 123 ? "" : 0);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      inObject.pop();
      path.pop();
    } else if (c === 44) {
      if (inObject[inObject.length - 1]) expectKey = true;
      else path[path.length - 1] = (path[path.length - 1] as number) + 1;
    } else if (isNumberStart(c)) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end] as string)) end++;
      const token = text.slice(i, end);
      const problem = numberProblem(token);
      if (problem) return { index: i, path: [...path], token, problem };
      i = end - 1;
    }
  }
  return null;
}
