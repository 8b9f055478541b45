/**
 * A server action's answer as a mutation's: its value, or its `{ ok: false }` refusal thrown as the
 * same ApiError a route's refusal becomes, so useMutation's `error` means one thing everywhere.
 */
import { errorFromAction } from "@/lib/api/api-error";
import type { ActionResult } from "@/lib/core/result";

export async function unwrapAction<T>(pending: Promise<ActionResult<T>>): Promise<T> {
  const result = await pending;
  if (!result.ok) throw errorFromAction(result.error);
  return result.value;
}
