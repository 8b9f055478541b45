/**
 * PostgreSQL refuses text it cannot store — a NUL character (22021), an unpaired surrogate escape in
 * jsonb (22P05 / 22P02) — deep inside a write. That is the caller's input, not a server fault, so
 * route and action error mappers turn it into INVALID_INPUT instead of a 500. The driver adapter
 * reports the SQLSTATE in the message (`Code: \`22021\``) or on the error's cause.
 */
const SQLSTATES = ["22021", "22P05", "22P02"];

export function isUnstorableTextError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && SQLSTATES.includes(code)) return true;
    const message = e instanceof Error ? e.message : "";
    if (SQLSTATES.some((s) => message.includes(`Code: \`${s}\``))) return true;
  }
  return false;
}

export const UNSTORABLE_TEXT_MESSAGE = "The input contains text the database cannot store (a NUL character or invalid Unicode).";
