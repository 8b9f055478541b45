import { describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";
import { optionsFromEnv, resolveOptions } from "../options";

describe("sandbox options", () => {
  it("reads SANDBOX_* variables", () => {
    expect(
      optionsFromEnv({ SANDBOX_BACKEND: "bwrap", SANDBOX_STEP_TIMEOUT_MS: "750", SANDBOX_SNAPSHOT: "0" }),
    ).toEqual({
      backend: "bwrap",
      stepTimeoutMs: 750,
      useSnapshot: false,
    });
  });

  it("lets explicit options win over env and defaults", () => {
    const options = resolveOptions(
      { stepTimeoutMs: 10 },
      { SANDBOX_STEP_TIMEOUT_MS: "750", SANDBOX_MEMORY_MB: "128" },
    );
    expect(options).toMatchObject({
      stepTimeoutMs: 10,
      memoryMiB: 128,
      loadTimeoutMs: 5_000,
      checkTimeoutMs: 5_000,
      maxOutputBytes: 4 * 1024 * 1024,
    });
  });

  it.each([
    [{ SANDBOX_BACKEND: "native" }, /SANDBOX_BACKEND/],
    [{ SANDBOX_STEP_TIMEOUT_MS: "soon" }, /SANDBOX_STEP_TIMEOUT_MS/],
    [{ SANDBOX_MEMORY_MB: "1" }, /memoryMiB/],
    [{ SANDBOX_MEMORY_MB: "8192" }, /memoryMiB/],
    [{ SANDBOX_HOST_BWRAP: "maybe" }, /SANDBOX_HOST_BWRAP/],
  ])("rejects bad configuration %j", (env, message) => {
    expect(() => resolveOptions({}, env)).toThrow(message);
  });

  it("refuses the unsandboxed mode through the public entry", () => {
    // @ts-expect-error: "native" is not a public backend
    expect(() => createSandboxRunner({ backend: "native" })).toThrow(/backend/);
  });

  it("fails clearly when bwrap is requested with an unusable python", () => {
    expect(() => createSandboxRunner({ backend: "bwrap", python: "/opt/nowhere/python3" })).toThrow(
      /python3 under \/usr|bubblewrap/,
    );
  });
});
