import "server-only";
/**
 * The one action client: parse → authorise → domain call → result. Server actions stay one line:
 *   export async function saveThingAction(raw: unknown) { return runAction(raw, SaveSchema, "REVIEWER", (input, user) => saveThing(getDb(), input, user)); }
 * Expected refusals (AppError: conflict, invalid input, forbidden…) come back as data so the UI can
 * show them; anything else is logged and reported as INTERNAL without leaking internals.
 */
import type { z } from "zod";
import { type AppErrorCode, isAppError } from "@/lib/core/errors";
import { isUnstorableTextError, UNSTORABLE_TEXT_MESSAGE } from "@/lib/db/unstorable-text";
import type { RoleName } from "../roles";
import { requireRole, type SessionUser } from "./require-role";

export type ActionError = { code: AppErrorCode; message: string; details?: unknown };
export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: ActionError };

export function toActionError(error: unknown): ActionError {
  if (isAppError(error)) return { code: error.code, message: error.message, details: error.details };
  if (isUnstorableTextError(error)) return { code: "INVALID_INPUT", message: UNSTORABLE_TEXT_MESSAGE };
  console.error(error);
  return { code: "INTERNAL", message: "Internal error; the details are in the server log." };
}

/** For actions that answer `{ ok: false, error: string }`: the message, without internals. */
export const actionErrorMessage = (error: unknown) => toActionError(error).message;

export async function runAction<S extends z.ZodType, T>(
  raw: unknown,
  schema: S,
  role: RoleName,
  handler: (input: z.infer<S>, user: SessionUser) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    // Authorise before parsing: an anonymous caller learns nothing about the expected input.
    const user = await requireRole(role);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
      return { ok: false, error: { code: "INVALID_INPUT", message } };
    }
    return { ok: true, value: await handler(parsed.data, user) };
  } catch (error) {
    return { ok: false, error: toActionError(error) };
  }
}
