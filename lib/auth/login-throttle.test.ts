import { describe, expect, it } from "vitest";
import { describeWait, throttleWaitMs } from "./login-throttle";

const t0 = new Date("2026-01-01T00:00:00Z");
const after = (s: number) => new Date(t0.getTime() + s * 1000);

describe("login throttle rule", () => {
  it("gives free failures, then doubles the wait after the latest failure, capped at 15 minutes", () => {
    const failures = (n: number) => Array.from({ length: n }, () => t0);
    expect(throttleWaitMs(failures(4), 5, t0)).toBe(0);
    expect(throttleWaitMs(failures(5), 5, t0)).toBe(1000);
    expect(throttleWaitMs(failures(7), 5, t0)).toBe(4000);
    expect(throttleWaitMs(failures(7), 5, after(3))).toBe(1000);
    expect(throttleWaitMs(failures(7), 5, after(5))).toBe(0);
    expect(throttleWaitMs(failures(40), 5, t0)).toBe(15 * 60 * 1000);
  });

  it("says when to retry in words", () => {
    expect(describeWait(1)).toBe("1 second");
    expect(describeWait(4000)).toBe("4 seconds");
    expect(describeWait(15 * 60 * 1000)).toBe("15 minutes");
  });
});
