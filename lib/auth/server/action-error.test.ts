import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/core/errors";
import { UNSTORABLE_TEXT_MESSAGE } from "@/lib/db/unstorable-text";
import { INTERNAL_ERROR_MESSAGE, toActionError } from "./action-error";

describe("toActionError", () => {
  it("keeps an expected refusal's code, message and retryability, with details only when there are some", () => {
    expect(toActionError(new AppError("FORBIDDEN", "no"))).toStrictEqual({
      code: "FORBIDDEN",
      message: "no",
      retryable: false,
    });
    expect(toActionError(new AppError("CONFLICT", "stale", { details: { headId: "v2" } }))).toStrictEqual({
      code: "CONFLICT",
      message: "stale",
      retryable: false,
      details: { headId: "v2" },
    });
    expect(toActionError(new AppError("RATE_LIMITED", "slow down")).retryable).toBe(true);
  });

  it("treats text Postgres cannot store as the caller's input", () => {
    const refused = Object.assign(new Error("invalid byte sequence"), { code: "22021" });
    expect(toActionError(refused)).toStrictEqual({
      code: "INVALID_INPUT",
      message: UNSTORABLE_TEXT_MESSAGE,
      retryable: false,
    });
  });

  it("logs anything else and answers INTERNAL without its text", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const reply = toActionError(new Error("password authentication failed for user app"));
    expect(reply).toStrictEqual({ code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE, retryable: true });
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});
