/**
 * Page search parameters arrive as the user typed them: absent, repeated (an array) or anything.
 * Pages read them through these, so a crafted URL renders or says "not found" instead of failing.
 */
export type SearchValue = string | string[] | undefined;

/** The first value of a parameter; undefined when absent or empty. */
export const firstParam = (value: SearchValue): string | undefined =>
  (Array.isArray(value) ? value[0] : value) || undefined;

/** A whole number parameter within PostgreSQL's integer range; undefined otherwise. */
export function intParam(value: SearchValue): number | undefined {
  const text = firstParam(value);
  const n = text === undefined ? NaN : Number(text);
  return Number.isInteger(n) && Math.abs(n) <= 2_147_483_647 ? n : undefined;
}
