import { NextResponse } from "next/server";
import type { ZodError } from "zod";
import { AppError, isAppError } from "@/lib/core/errors";

/** One mapping from errors to HTTP responses for every route handler. */
export function errorResponse(error: unknown): NextResponse {
  if (isAppError(error)) {
    return NextResponse.json({ error: { code: error.code, message: error.message, retryable: error.retryable } }, { status: error.httpStatus });
  }
  console.error(error);
  return NextResponse.json({ error: { code: "INTERNAL", message: "Internal error", retryable: true } }, { status: 500 });
}

export function invalidInput(error: ZodError): AppError {
  const message = error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  return new AppError("INVALID_INPUT", message);
}
