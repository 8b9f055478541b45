import "server-only";
/**
 * The one mapping from a thrown error to what the caller sees, shared by server actions
 * (run-action.ts) and route handlers (app/api/respond.ts). Expected refusals (AppError) keep their
 * message; text Postgres cannot store is the caller's input, not a fault; anything else is logged
 * and reported as INTERNAL without internals.
 */
import { type ActionError, isAppError } from "@/lib/core/errors";
import { isUnstorableTextError, UNSTORABLE_TEXT_MESSAGE } from "@/lib/db/unstorable-text";

export const INTERNAL_ERROR_MESSAGE = "Internal error; the details are in the server log.";

export function toActionError(error: unknown): ActionError {
  if (isAppError(error)) {
    // No `details` key when there are none: the action wire format would carry it as "$undefined".
    const { code, message, retryable, details } = error;
    return details === undefined ? { code, message, retryable } : { code, message, retryable, details };
  }
  if (isUnstorableTextError(error))
    return { code: "INVALID_INPUT", message: UNSTORABLE_TEXT_MESSAGE, retryable: false };
  console.error(error);
  // Unexpected failures are often transient (a dropped connection); the caller may try again.
  return { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE, retryable: true };
}
