import { NextResponse } from "next/server";
import type { z } from "zod";
import { AppError, httpStatusOf, isAppError } from "@/lib/core/errors";
import { decodeUtf8, NOT_UTF8_MESSAGE, parseCheckedJson } from "@/lib/auth/input-guard";
import { toActionError } from "@/lib/auth/server/action-error";

/**
 * One mapping from errors to HTTP responses for every route handler: `{ error: { code, message,
 * retryable } }` with the code's status (the same error text a server action would answer).
 */
export function errorResponse(error: unknown): NextResponse {
  const { code, message, retryable, details } = toActionError(error);
  const retryAfter = (details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  return NextResponse.json(
    { error: { code, message, retryable } },
    {
      status: isAppError(error) ? error.httpStatus : httpStatusOf(code),
      headers: retryAfter ? { "retry-after": String(retryAfter) } : undefined,
    },
  );
}

/** What the server may hand NextResponse.json for a wire type: a Date where the wire has its ISO string. */
type Sendable<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? readonly Sendable<U>[]
    : T extends object
      ? { [K in keyof T]: Sendable<T[K]> }
      : T;

/**
 * A route's answer, type-checked against the schema the pages parse it with (lib/api/routes.ts):
 * a field the schema requires and the server does not send fails the build, not the page.
 */
export function respondWith<S extends z.ZodType>(
  route: { response: S },
  body: Sendable<z.input<S>>,
  init?: ResponseInit,
): NextResponse {
  return NextResponse.json(body, init);
}

/** 415 as an AppError: the status code is the one thing that differs from INVALID_INPUT's 400. */
class UnsupportedMediaType extends AppError {
  override get httpStatus() {
    return 415;
  }
}

/** The request's content type without parameters (`application/json; charset=utf-8` → `application/json`). */
export const mediaType = (request: Request) =>
  (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

export function requireMediaType(request: Request, expected: string): void {
  const actual = mediaType(request);
  if (actual !== expected)
    throw new UnsupportedMediaType(
      "INVALID_INPUT",
      `Send ${expected}${actual ? `, not ${actual}` : " (the Content-Type header is missing)"}.`,
    );
}

/**
 * The JSON body of a write: only `application/json` (a cross-site form or no-cors fetch can send
 * text/plain but never that), UTF-8 (not decoded leniently into U+FFFD), checked for NUL bytes, lone
 * surrogates and depth (lib/auth/input-guard.ts). Its size was checked by proxy.ts.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  requireMediaType(request, "application/json");
  const text = decodeUtf8(await request.arrayBuffer());
  if (text === null) throw new AppError("INVALID_INPUT", NOT_UTF8_MESSAGE);
  const parsed = parseCheckedJson(text);
  if (!parsed.ok) throw new AppError("INVALID_INPUT", parsed.message);
  return parsed.value;
}

/** The query string as an object: a repeated key keeps its last value, an empty one is absent. */
export const readQuery = (request: Request) =>
  Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
