/**
 * "This request cannot proceed" errors, mapped once to an HTTP status / action result.
 * Every error says whether retrying the same operation could succeed.
 */
export const APP_ERROR_CODES = [
  "NOT_FOUND",
  "CONFLICT",
  "INVALID_INPUT",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "UNAVAILABLE",
  "RATE_LIMITED",
  "INTERNAL",
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

const STATUS: Record<AppErrorCode, number> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
  // Too many attempts or too much work in flight for this caller; details.retryAfterSeconds says when.
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly retryable: boolean;
  readonly details?: unknown;

  constructor(
    code: AppErrorCode,
    message: string,
    opts: { retryable?: boolean; details?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.retryable = opts.retryable ?? (code === "UNAVAILABLE" || code === "RATE_LIMITED");
    this.details = opts.details;
  }

  get httpStatus(): number {
    return STATUS[this.code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const httpStatusOf = (code: AppErrorCode): number => STATUS[code];

/**
 * A refusal as the browser sees it: an action's `{ ok: false, error }` and a route's `{ error }`
 * body. `details` carries data the UI acts on (retry-after seconds, a conflicting id).
 */
export type ActionError = { code: AppErrorCode; message: string; retryable: boolean; details?: unknown };

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
