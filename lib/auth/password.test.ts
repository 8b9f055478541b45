import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";
import { isLoginRequired } from "./login-policy";
import { CreateUserInputSchema, LoginInputSchema, safeNextPath } from "./auth.schema";

describe("password hashing", () => {
  it("verifies the right password only, with a fresh salt per hash", async () => {
    const a = await hashPassword("s3cret-password");
    const b = await hashPassword("s3cret-password");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("s3cret-password", a)).toBe(true);
    expect(await verifyPassword("s3cret-passworD", a)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
  });
});

describe("login policy", () => {
  it("requires login off loopback or when forced", () => {
    expect(isLoginRequired({ HOST: "127.0.0.1" })).toBe(false);
    expect(isLoginRequired({ HOST: "localhost" })).toBe(false);
    expect(isLoginRequired({ HOST: "::1" })).toBe(false);
    expect(isLoginRequired({})).toBe(false);
    expect(isLoginRequired({ HOST: "0.0.0.0" })).toBe(true);
    expect(isLoginRequired({ HOST: "127.0.0.2" })).toBe(true);
    expect(isLoginRequired({ HOST: "127.0.0.1", ENVSTUDIO_REQUIRE_LOGIN: "1" })).toBe(true);
  });

  it("follows only same-site paths after login", () => {
    expect(safeNextPath("/review?x=1")).toBe("/review?x=1");
    expect(safeNextPath("//evil.example")).toBe("/");
    expect(safeNextPath("https://evil.example")).toBe("/");
    expect(safeNextPath(undefined)).toBe("/");
    // Browsers read `\` as `/` and drop tabs and newlines: each of these would leave the studio.
    for (const next of [
      "/\\localhost:8099/x",
      "/\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/login?next=//evil",
    ]) {
      expect(safeNextPath(next)).toBe("/");
    }
    expect(safeNextPath("/environments/abc/edit#tools")).toBe("/environments/abc/edit#tools");
    expect(safeNextPath(["/a", "/b"])).toBe("/");
  });

  it("accepts the first-start admin's address admin@localhost, refuses non-addresses", () => {
    expect(LoginInputSchema.safeParse({ email: "Admin@Localhost", password: "x" })).toMatchObject({
      success: true,
      data: { email: "admin@localhost" },
    });
    expect(
      CreateUserInputSchema.safeParse({
        email: "rita@localhost",
        name: "Rita",
        role: "REVIEWER",
        password: "0123456789",
      }).success,
    ).toBe(true);
    for (const email of ["admin", "a@", "@b", "a b@c", "a@b@c", "a\u0000@b"])
      expect(LoginInputSchema.safeParse({ email, password: "x" }).success).toBe(false);
  });
});
