/**
 * Input no handler can store or even decode, refused before it reaches one (pure; used by proxy.ts
 * for URLs and server-action bodies, and by the JSON route helper):
 * - NUL characters: PostgreSQL text cannot hold them, so a query fails deep inside Prisma;
 * - lone UTF-16 surrogates: not Unicode; jsonb refuses their escapes;
 * - URLs with broken percent-encoding;
 * - JSON nested deeper than MAX_JSON_DEPTH: React's action-argument decoder and zod recurse per
 *   level and overflow the stack at a few thousand.
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
