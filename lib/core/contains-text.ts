/**
 * A search box's text as a Prisma `contains` filter, any case. Prisma sends `contains` to Postgres as
 * an ILIKE pattern without escaping it, so a `%` or `_` a user types would match anything; here they
 * (and the escape character `\`) are escaped, and the text matches only itself.
 */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export const containsText = (text: string) => ({ contains: likeLiteral(text), mode: "insensitive" as const });
