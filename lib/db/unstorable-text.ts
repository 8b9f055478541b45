/**
 * PostgreSQL refuses text it cannot store — a NUL character (22021), an unpaired surrogate escape in
 * jsonb (22P02 / 22P05) — deep inside a write. That is the caller's input, not a server fault, so
 * route and action error mappers turn it into INVALID_INPUT instead of a 500. Prisma's driver
 * adapter puts the SQLSTATE in `meta.driverAdapterError.cause` (and sometimes the message).
 */
const SQLSTATES = ["22021", "22P05", "22P02"];

type AdapterMeta = { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } };

export function isUnstorableTextError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as AdapterMeta).meta?.driverAdapterError?.cause;
  const codes = [cause?.originalCode, cause?.code, (error as { code?: unknown }).code];
  if (codes.some((c) => typeof c === "string" && SQLSTATES.includes(c))) return true;
  return SQLSTATES.some((s) => error.message.includes(`Code: \`${s}\``));
}

export const UNSTORABLE_TEXT_MESSAGE =
  "The input contains text the database cannot store (a NUL character or invalid Unicode).";
