/** A failed call as the host reports it: codes match SandboxError in sandbox.schema.ts. */
export function failure(code, message, retryable = false) {
  return { error: { code, message, retryable } };
}
