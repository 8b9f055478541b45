/**
 * Turns a lease call's raw reply into a typed Result: harness errors become SandboxErrors,
 * anything that does not match the expected reply schema is treated as a sandbox failure.
 */
import type { z } from "zod";
import { type Result, err, ok } from "../core/result";
import type { CallError } from "./backend";
import { HarnessErrorReplySchema, type SandboxError } from "./sandbox.schema";
import { formatZodIssues } from "../core/zod-issues";

export type Parsed<T> = Result<T, CallError>;

export function parseReply<S extends z.ZodType>(
  raw: Result<unknown, CallError>,
  schema: S,
): Parsed<z.infer<S>> {
  if (!raw.ok) return raw;
  const failed = HarnessErrorReplySchema.safeParse(raw.value);
  if (failed.success) return err(toSandboxError(failed.data.error));
  const parsed = schema.safeParse(raw.value);
  if (parsed.success) return ok(parsed.data);
  return err({
    code: "SANDBOX_UNAVAILABLE",
    message: `unexpected reply from the sandbox: ${formatZodIssues(parsed.error, { max: 1, withPath: false })}`,
    retryable: false,
  });
}

function toSandboxError(error: { code: SandboxError["code"]; message: string }): SandboxError {
  return { code: error.code, message: error.message, retryable: error.code === "SANDBOX_UNAVAILABLE" };
}

/** Limit hits and crashes leave the environment in an unknown state: the episode must end. */
export function endsEpisode(error: CallError): boolean {
  return error.terminated === true || ["TIMEOUT", "MEMORY", "SANDBOX_UNAVAILABLE"].includes(error.code);
}
