/**
 * Expected outcomes that are data (the LLM output did not parse, the sandbox timed out, a check
 * failed) travel as Result values: they are stored and shown to reviewers, never thrown away.
 */
import type { StepError } from "./run";

export type Ok<T> = { ok: true; value: T };
export type Err<E> = { ok: false; error: E };
export type Result<T, E = StepError> = Ok<T> | Err<E>;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const err = <E>(error: E): Err<E> => ({ ok: false, error });

/** Unwraps or throws the error (for callers where failure is truly exceptional). */
export function unwrap<T, E>(result: Result<T, E>): T {
  if (result.ok) return result.value;
  const e = result.error as unknown;
  throw e instanceof Error
    ? e
    : new Error(typeof e === "object" && e && "message" in e ? String(e.message) : String(e));
}
