/**
 * Input no handler can store or even decode, refused before it reaches one (pure; used by proxy.ts
 * for URLs and server-action bodies, and by the JSON route helper):
 * - bodies that are not UTF-8: decoding would turn them into U+FFFD and store that instead;
 * - NUL characters: PostgreSQL text cannot hold them, so a query fails deep inside Prisma;
 * - lone UTF-16 surrogates: not Unicode; jsonb refuses their escapes;
 * - URLs with broken percent-encoding;
 * - JSON nested deeper than MAX_JSON_DEPTH: React's action-argument decoder and zod recurse per
 *   level and overflow the stack at a few thousand;
 * - server-action arguments that are not an array, or that reference values no action takes
 *   (findBadActionArguments): Next.js fails on those with a 500 before the action runs.
 * Each check answers with the place of the problem, so the 400 says what to fix.
 */

/** Far above any real tool argument or state (EnvScaler states nest a handful of levels). */
export const MAX_JSON_DEPTH = 64;

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function badText(text: string): string | null {
  if (text.includes(NUL)) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode)";
  return null;
}

/** Walks a parsed JSON value without recursion (a hostile depth must not overflow the walker). */
export function findBadJson(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "input", depth: 0 }];
  while (stack.length) {
    const item = stack.pop();
    if (!item) break;
    if (typeof item.value === "string") {
      const bad = badText(item.value);
      if (bad) return `${item.path} ${bad}`;
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= maxDepth) return `${item.path} is nested more than ${maxDepth} levels deep`;
    for (const [key, child] of Object.entries(item.value)) {
      const bad = badText(key);
      if (bad) return `a key in ${item.path} ${bad}`;
      stack.push({ value: child, path: `${item.path}.${key}`.slice(0, 200), depth: item.depth + 1 });
    }
  }
  return null;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A request body as text, or null when its bytes are not UTF-8. */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

export const NOT_UTF8_MESSAGE = "The request body is not valid UTF-8.";

/** Parses a JSON text and checks it; the message is meant for the caller. */
export function parseCheckedJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const bad = badText(text);
  if (bad) return { ok: false, message: `The request body ${bad}.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "The request body is not valid JSON." };
  }
  const problem = findBadJson(value);
  return problem ? { ok: false, message: `Refused: ${problem}.` } : { ok: true, value };
}

/** The path and query of a request URL, still percent-encoded as received. */
export function findBadUrl(pathname: string, search: string): string | null {
  const parts = [...pathname.split("/"), ...search.replace(/^\?/, "").split(/[&=]/)];
  for (const part of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.replaceAll("+", " "));
    } catch {
      return "The address has broken percent-encoding.";
    }
    const bad = badText(decoded);
    if (bad) return `The address ${bad}.`;
  }
  return null;
}

/**
 * React sends server-action arguments as a JSON array in which a string starting with "$" stands
 * for a value JSON cannot carry. The studio's actions take plain data, so only the references React
 * writes for plain values pass: an escaped "$$…" string, undefined, NaN, ±Infinity, -0, a date, a
 * bigint, and in multipart bodies FormData (the sign-out form posts one). Any other reference (Map,
 * Set, promise, iterator, stream, blob, server function…) fails in React's decoder or in Next's
 * call of the action — a 500 before the action could refuse it.
 */
const PLAIN_VALUE_REFERENCE = /^\$(?:\$|D|undefined$|NaN$|-?Infinity$|-0$|n-?\d+$)/;
const FORM_DATA_REFERENCE = /^\$K[0-9a-f]+$/;

export function findBadActionArguments(value: unknown, opts: { multipart: boolean }): string | null {
  if (!Array.isArray(value)) return "the arguments must be a JSON array";
  // findBadJson has bounded the depth; an explicit stack keeps this walk off the call stack anyway.
  const stack: { value: unknown; path: string }[] = [{ value, path: "arguments" }];
  while (stack.length) {
    const item = stack.pop();
    if (!item) break;
    if (typeof item.value === "string") {
      const text = item.value;
      const allowed =
        !text.startsWith("$") ||
        PLAIN_VALUE_REFERENCE.test(text) ||
        (opts.multipart && FORM_DATA_REFERENCE.test(text));
      if (!allowed) return `${item.path} is a reference to a value the studio's actions do not take`;
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    for (const [key, child] of Object.entries(item.value))
      stack.push({ value: child, path: `${item.path}.${key}`.slice(0, 200) });
  }
  return null;
}
