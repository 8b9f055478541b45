/**
 * The audit log's before → after as the fields that changed, for people: internal ids (cuids a
 * reviewer cannot use) are left out, and values are short text. The raw JSON stays one click away.
 */
/** `after: null`: the after does not mention the field (the before gives it as context). */
export type FieldChange = { field: string; before: string; after: string | null };

const ID_KEY = /(^id$|Id$|Ids$)/;
const MAX_VALUE = 80;

function text(value: unknown): string {
  if (value === undefined || value === null) return "—";
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Fields of `after` (and fields only `before` had) whose value changed, ids excluded. A value
 * that is not an object is one change named "value". */
export function describeChanges(before: unknown, after: unknown): FieldChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    return JSON.stringify(before ?? null) === JSON.stringify(after ?? null)
      ? []
      : [{ field: "value", before: text(before), after: text(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !ID_KEY.test(k));
  return fields
    .filter((k) => JSON.stringify(b[k] ?? null) !== JSON.stringify(a[k] ?? null))
    .map((k) => ({ field: k, before: text(b[k]), after: k in a ? text(a[k]) : null }));
}
