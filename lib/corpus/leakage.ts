/**
 * Answer leakage: a scenario whose task text already contains what its gold calls must supply.
 *
 * The rule (docs/corpus.md#answer-leakage): every scalar leaf of every gold call's arguments is a
 * candidate, except
 * - booleans and null (a yes/no is not an answer one can leak);
 * - numbers of fewer than 4 characters (`3`, `12`, `2.5`: counts and small amounts a task must state);
 * - strings shorter than 4 characters after trimming;
 * - ids the task must name: a parameter called `id` or ending in `id`/`ids` (`user_id`, `flightId`),
 *   or a value that is one identifier-like token containing a digit (`U123`, `ORD-1001`, a UUID).
 * A candidate leaks when its text occurs in the task at word boundaries, ignoring case (tabs and line
 * breaks count as spaces).
 */
export type GoldCallLike = { name: string; arguments?: Record<string, unknown> | undefined };
export type Leak = { call: string; path: string; value: string };

const MIN_STRING = 4;
const MIN_NUMBER_CHARS = 4;
const ID_PARAM = /(^ids?$|_ids?$|[a-z0-9]Ids?$)/;
const ID_VALUE = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\t\n\r]/g, " ")
    .trim();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function* leaves(
  value: unknown,
  path: string,
  key: string,
): Generator<{ path: string; key: string; value: unknown }> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* leaves(v, `${path}[${i}]`, key);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) yield* leaves(v, path ? `${path}.${k}` : k, k);
  } else {
    yield { path, key, value };
  }
}

/** The text a leaf would leak, or null when the rule ignores it. */
export function leakCandidate(key: string, value: unknown): string | null {
  if (typeof value === "number") {
    const text = String(value);
    return text.replace(/^-/, "").length >= MIN_NUMBER_CHARS ? text : null;
  }
  if (typeof value !== "string") return null;
  const text = normalise(value);
  if (text.length < MIN_STRING) return null;
  if (ID_PARAM.test(key) || ID_VALUE.test(value.trim())) return null;
  return text;
}

export function occursIn(task: string, needle: string): boolean {
  // \b only works next to word characters; a value that starts or ends with punctuation needs no boundary there.
  const start = /^\w/.test(needle) ? "\\b" : "";
  const end = /\w$/.test(needle) ? "\\b" : "";
  return new RegExp(`${start}${escapeRegExp(needle)}${end}`).test(normalise(task));
}

export function findLeaks(task: string, goldCalls: readonly GoldCallLike[]): Leak[] {
  const out: Leak[] = [];
  for (const call of goldCalls) {
    for (const leaf of leaves(call.arguments ?? {}, "", "")) {
      const text = leakCandidate(leaf.key, leaf.value);
      if (text !== null && occursIn(task, text)) out.push({ call: call.name, path: leaf.path, value: text });
    }
  }
  return out;
}
