import { describe, expect, it } from "vitest";
import { countStep, emptyTally, retryErrorFor } from "./run-tally";

const failed = (code: string, retryable: boolean) =>
  ({ status: "FAILED", error: { code, message: code, retryable } }) as const;

describe("run tally", () => {
  it("counts successes, failures, retryable failures and a spent budget", () => {
    const tally = emptyTally();
    countStep(tally, { status: "SUCCEEDED" });
    countStep(tally, failed("LLM_HTTP", true));
    countStep(tally, failed("BUDGET_EXCEEDED", false));
    expect(tally).toEqual({ succeeded: 1, failed: 2, retryable: 1, budgetExceeded: true });
  });

  it("asks for a retry only while retryable failures remain and attempts are left", () => {
    const tally = emptyTally();
    expect(retryErrorFor(tally, "proof step(s)", false)).toBeNull();
    countStep(tally, failed("LLM_HTTP", true));
    const retry = retryErrorFor(tally, "proof step(s)", false);
    expect(retry?.retryable).toBe(true);
    expect(retry?.message).toBe("1 proof step(s) failed and may succeed on retry");
    expect(retryErrorFor(tally, "proof step(s)", true)).toBeNull();
  });
});
