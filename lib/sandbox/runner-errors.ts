import type { SandboxError } from "./sandbox.schema";

export const invalidRequest = (message: string): SandboxError => ({
  code: "INVALID_REQUEST",
  message,
  retryable: false,
});

/** A worker's error reply as the runner's error (the reply may carry more fields than the Result needs). */
export const replyError = (error: SandboxError): SandboxError => ({
  code: error.code,
  message: error.message,
  retryable: error.retryable,
});
