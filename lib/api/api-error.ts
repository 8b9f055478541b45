/**
 * A call from a page that did not produce the answer it asked for, as one error type whether it went
 * through a route handler or a server action: the server's code and message, and whether trying the
 * same call again could succeed (the UI offers a retry only then).
 */
import { z } from "zod";
import { type ActionError, APP_ERROR_CODES, type AppErrorCode } from "../core/errors";

/** The body every route handler and proxy.ts refusal answers with (app/api/respond.ts). */
export const ErrorBodySchema = z.object({
  error: z.object({ code: z.enum(APP_ERROR_CODES), message: z.string(), retryable: z.boolean() }),
});

export class ApiError extends Error {
  readonly code: AppErrorCode;
  readonly retryable: boolean;
  /** The HTTP status, or null when no answer arrived (network failure) or the call was an action. */
  readonly status: number | null;
  /** From a 429/503's Retry-After header or a refusal's details: when trying again makes sense. */
  readonly retryAfterSeconds?: number;
  /** Data a server action's refusal carries for the UI to act on (a conflicting head, code markers). */
  readonly details?: unknown;

  constructor(
    code: AppErrorCode,
    message: string,
    opts: {
      retryable: boolean;
      status?: number | null;
      retryAfterSeconds?: number;
      details?: unknown;
      cause?: unknown;
    },
  ) {
    super(message, { cause: opts.cause });
    this.name = "ApiError";
    this.code = code;
    this.retryable = opts.retryable;
    this.status = opts.status ?? null;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
    if (opts.details !== undefined) this.details = opts.details;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** For an answer without the studio's error body (a proxy in front, a crash before the handler). */
const CODE_BY_STATUS: Record<number, AppErrorCode> = {
  400: "INVALID_INPUT",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "INVALID_INPUT",
  415: "INVALID_INPUT",
  429: "RATE_LIMITED",
  503: "UNAVAILABLE",
};

const parseRetryAfter = (header: string | null): number | undefined => {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/** A non-2xx answer: the server's own code, message and retryability when it sent its error body. */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ApiError {
  const retryAfterSeconds = parseRetryAfter(retryAfter);
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, retryable } = parsed.data.error;
    return new ApiError(code, message, { retryable, status, retryAfterSeconds });
  }
  // A gateway error or an overloaded server may well answer the next time; a 4xx will not.
  const code = CODE_BY_STATUS[status] ?? "INTERNAL";
  const retryable = status >= 500 || status === 429;
  return new ApiError(code, `The server answered HTTP ${status}.`, { retryable, status, retryAfterSeconds });
}

/** A server action's `{ ok: false, error }` as the same error a route's refusal becomes. */
export function errorFromAction(error: ActionError): ApiError {
  const retryAfterSeconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return new ApiError(error.code, error.message, {
    retryable: error.retryable,
    retryAfterSeconds: typeof retryAfterSeconds === "number" ? retryAfterSeconds : undefined,
    details: error.details,
  });
}
