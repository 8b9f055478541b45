import "server-only";
/**
 * The one action client: authorise → parse → domain call → result. Server actions stay one line:
 *   export async function saveThingAction(raw: unknown) { return runAction(raw, SaveSchema, "REVIEWER", (input, user) => saveThing(getDb(), input, user)); }
 * Expected refusals (AppError: conflict, invalid input, forbidden…) come back as data so the UI can
 * show them; anything else is logged and reported as INTERNAL without leaking internals
 * (action-error.ts). Every server action in app/ goes through here, so every one answers the same
 * `ActionResult` shape, and a viewer gets a refusal rather than a server error.
 * Hazard: next/navigation's redirect() works by throwing, so call it after runAction returns, never
 * inside the handler (it would be reported as INTERNAL); see app/login/actions.ts.
 */
import type { z } from "zod";
import { parseInput } from "@/lib/core/parse-input";
import type { ActionResult } from "@/lib/core/result";
import type { RoleName } from "../roles";
import { toActionError } from "./action-error";
import { requireRole, type SessionUser } from "./require-role";

/** For the few actions anyone may call (signing in and out): no session is looked up. */
export const ANYONE = "ANYONE";

export type ActionCaller<R> = R extends RoleName ? SessionUser : null;

export async function runAction<S extends z.ZodType, T, R extends RoleName | typeof ANYONE>(
  raw: unknown,
  schema: S,
  role: R,
  handler: (input: z.infer<S>, user: ActionCaller<R>) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    // Authorise before parsing: an anonymous caller learns nothing about the expected input.
    const user = (role === ANYONE ? null : await requireRole(role)) as ActionCaller<R>;
    return { ok: true, value: await handler(parseInput(schema, raw), user) };
  } catch (error) {
    return { ok: false, error: toActionError(error) };
  }
}
