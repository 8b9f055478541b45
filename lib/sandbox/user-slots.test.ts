import { describe, expect, it } from "vitest";
import { UserSlots, sandboxCallsPerUser } from "./user-slots";

describe("per-user sandbox slots", () => {
  it("refuses a user's call over the limit with a busy answer while other users' calls run", async () => {
    const slots = new UserSlots(1);
    let release = () => {};
    const held = slots.run(
      "alice",
      () => new Promise<string>((resolve) => (release = () => resolve("done"))),
    );
    await expect(slots.run("alice", () => Promise.resolve("second"))).rejects.toMatchObject({
      code: "RATE_LIMITED",
      retryable: true,
      message: expect.stringMatching(/^Busy: .*Retry/) as string,
    });
    await expect(slots.run("bob", () => Promise.resolve("bob ran"))).resolves.toBe("bob ran");
    release();
    await expect(held).resolves.toBe("done");
    await expect(slots.run("alice", () => Promise.resolve("again"))).resolves.toBe("again");
    // A failing call frees its slot too.
    await expect(slots.run("alice", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(slots.run("alice", () => Promise.resolve("after failure"))).resolves.toBe("after failure");
  });

  it("reads its limit from ENVSTUDIO_SANDBOX_CALLS_PER_USER (default 1), refusing a malformed one", () => {
    expect(sandboxCallsPerUser({})).toBe(1);
    expect(sandboxCallsPerUser({ ENVSTUDIO_SANDBOX_CALLS_PER_USER: "3" })).toBe(3);
    expect(() => sandboxCallsPerUser({ ENVSTUDIO_SANDBOX_CALLS_PER_USER: "zero" })).toThrow(
      'ENVSTUDIO_SANDBOX_CALLS_PER_USER: must be a number (got "zero")',
    );
  });
});
