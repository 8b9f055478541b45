/**
 * The order of a dataset plan's items: by key (`environment-slug/external-id`), compared by code
 * point. The pure plan sorts this way and the preview's SQL pages with `COLLATE "C"` (UTF-8 bytes,
 * which order as code points), so a page read from Postgres is the page the pure plan would show.
 */
export const planKey = (environmentSlug: string, externalId: string) => `${environmentSlug}/${externalId}`;

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Code point order. JavaScript's `<` compares UTF-16 units, which puts U+10000 and above (stored as
 * surrogate pairs) before U+E000–U+FFFF; here they sort after every other unit, as in UTF-8.
 */
export function compareKeys(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
