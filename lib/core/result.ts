/**
 * Expected outcomes that are data (the LLM output did not parse, the sandbox timed out, a check
 * failed) travel as Result values: they are stored and shown to reviewers, never thrown away.
 */
import type { ActionError } from "./errors";
import type { StepError } from "./run";

export type Ok<T> = { ok: true; value: T };
export type Err<E> = { ok: false; error: E };
export type Result<T, E = StepError> = Ok<T> | Err<E>;

/** What every server action returns: its value, or a refusal the UI shows (lib/auth/server/run-action.ts). */
export type ActionResult<T> = Result<T, ActionError>;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const err = <E>(error: E): Err<E> => ({ ok: false, error });
