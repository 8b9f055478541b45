import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createUser } from "@/prisma/seed/factories";
import { sha256 } from "@/lib/environments/hash";
import { ensureAdmin } from "./ensure-admin";
import { logIn } from "./log-in";
import { updateUser } from "./manage-users";
import { assertRole, resolveUser } from "./resolve-user";
import { createSession, findSessionUser } from "./sessions";

const t = useTestDatabase();

describe("sessions and roles", () => {
  it("logs in with the right password, stores only the token hash, and resolves the user", async () => {
    const user = await createUser(t.db, { role: "REVIEWER" });
    await expect(logIn(t.db, { email: user.email, password: "wrong password" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(logIn(t.db, { email: "nobody@test.local", password: user.password })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    const { token } = await logIn(t.db, { email: user.email, password: user.password });
    const stored = await t.db.session.findMany({ where: { userId: user.id } });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).toBe(sha256(token));
    expect(stored[0]?.tokenHash).not.toContain(token);
    expect(await findSessionUser(t.db, token)).toMatchObject({ id: user.id, role: "REVIEWER" });
  });

  it("rejects expired sessions and disabled users; a role change ends sessions", async () => {
    const user = await createUser(t.db, { role: "REVIEWER" });
    const { token } = await createSession(t.db, user.id, new Date(Date.now() - 30 * 24 * 3600 * 1000));
    expect(await findSessionUser(t.db, token)).toBeNull();
    const fresh = await createSession(t.db, user.id);
    expect(await findSessionUser(t.db, fresh.token)).not.toBeNull();
    await updateUser(t.db, { userId: user.id, role: "VIEWER" }, null);
    expect(await findSessionUser(t.db, fresh.token)).toBeNull();
    const disabled = await createUser(t.db, { disabled: true });
    await expect(logIn(t.db, { email: disabled.email, password: disabled.password })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });

  it("enforces the role order and the login policy", async () => {
    const viewer = await createUser(t.db, { role: "VIEWER" });
    const { token } = await createSession(t.db, viewer.id);
    const asViewer = await resolveUser(t.db, token, { loginRequired: true });
    expect(assertRole(asViewer, "VIEWER").id).toBe(viewer.id);
    expect(() => assertRole(asViewer, "REVIEWER")).toThrow(
      expect.objectContaining({ code: "FORBIDDEN" }) as Error,
    );
    // No session: nobody when login is required, the local admin on loopback.
    expect(() => assertRole(null, "VIEWER")).toThrow(
      expect.objectContaining({ code: "UNAUTHENTICATED" }) as Error,
    );
    expect(await resolveUser(t.db, undefined, { loginRequired: true })).toBeNull();
    const local = await resolveUser(t.db, "forged-token", { loginRequired: false });
    expect(local?.role).toBe("ADMIN");
  });

  it("an unknown user id is NOT_FOUND, not an internal error, and ends nobody's session", async () => {
    const admin = await createUser(t.db, { role: "ADMIN" });
    const { token } = await createSession(t.db, admin.id);
    await expect(
      updateUser(t.db, { userId: "no-such-user", role: "VIEWER" }, admin.id),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "User was not found.",
    });
    expect(await findSessionUser(t.db, token)).not.toBeNull();
  });

  it("admins cannot lock themselves out", async () => {
    const admin = await createUser(t.db, { role: "ADMIN" });
    await expect(updateUser(t.db, { userId: admin.id, role: "VIEWER" }, admin.id)).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });
});

describe("first-start admin", () => {
  it("is created once, from env or with a generated password", async () => {
    // This file's database already has users from the tests above; use a clean check of the rule.
    const count = await t.db.user.count();
    expect(count).toBeGreaterThan(0);
    expect(await ensureAdmin(t.db, { email: "x@y.z", password: "0123456789" })).toEqual({ created: false });
    await t.db.session.deleteMany({});
    await t.db.user.deleteMany({});
    const first = await ensureAdmin(t.db, {});
    expect(first).toMatchObject({ created: true, email: "admin@localhost" });
    if (!first.created || !first.generatedPassword) throw new Error("expected a generated password");
    await expect(
      logIn(t.db, { email: "admin@localhost", password: first.generatedPassword }),
    ).resolves.toHaveProperty("token");
    expect(await ensureAdmin(t.db, {})).toEqual({ created: false });
  });
});
