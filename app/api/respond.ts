import { NextResponse } from "next/server";
import type { ZodError } from "zod";
import { AppError, isAppError } from "@/lib/core/errors";
import { parseCheckedJson } from "@/lib/auth/input-guard";
import { isUnstorableTextError, UNSTORABLE_TEXT_MESSAGE } from "@/lib/db/unstorable-text";

/** One mapping from errors to HTTP responses for every route handler. */
export function errorResponse(error: unknown): NextResponse {
  if (isAppError(error)) {
    const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    return NextResponse.json(
      { error: { code: error.code, message: error.message, retryable: error.retryable } },
      { status: error.httpStatus, headers: retryAfter ? { "retry-after": String(retryAfter) } : undefined },
    );
  }
  if (isUnstorableTextError(error)) return errorResponse(new AppError("INVALID_INPUT", UNSTORABLE_TEXT_MESSAGE));
  console.error(error);
  return NextResponse.json({ error: { code: "INTERNAL", message: "Internal error", retryable: true } }, { status: 500 });
}

export function invalidInput(error: ZodError): AppError {
  const message = error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  return new AppError("INVALID_INPUT", message);
}

/** 415 as an AppError: the status code is the one thing that differs from INVALID_INPUT's 400. */
class UnsupportedMediaType extends AppError {
  override get httpStatus() {
    return 415;
  }
}

/** The request's content type without parameters (`application/json; charset=utf-8` → `application/json`). */
export const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

export function requireMediaType(request: Request, expected: string): void {
  const actual = mediaType(request);
  if (actual !== expected) throw new UnsupportedMediaType("INVALID_INPUT", `Send ${expected}${actual ? `, not ${actual}` : " (the Content-Type header is missing)"}.`);
}

/**
 * The JSON body of a write: only `application/json` (a cross-site form or no-cors fetch can send
 * text/plain but never that), checked for NUL bytes, lone surrogates and depth
 * (lib/auth/input-guard.ts). Its size was checked by proxy.ts.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  requireMediaType(request, "application/json");
  const parsed = parseCheckedJson(await request.text());
  if (!parsed.ok) throw new AppError("INVALID_INPUT", parsed.message);
  return parsed.value;
}
