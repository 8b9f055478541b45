/** An admin resets a user's password; the old one stops working, sessions end. */
import { describe, expect, it } from "vitest";
import { createUser } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { logIn } from "./log-in";
import { resetPassword } from "./reset-password";
import { createSession, findSessionUser } from "./sessions";

const t = useTestDatabase();

describe("password reset by an admin", () => {
  it("sets a new password and ends the user's sessions", async () => {
    const user = await createUser(t.db, { role: "VIEWER", password: "the old password" });
    const { token } = await createSession(t.db, user.id);
    expect(await findSessionUser(t.db, token)).not.toBeNull();
    await resetPassword(t.db, { userId: user.id, password: "a brand new password" });
    expect(await findSessionUser(t.db, token)).toBeNull();
    await expect(logIn(t.db, { email: user.email, password: "the old password" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    expect(await logIn(t.db, { email: user.email, password: "a brand new password" })).toBeTruthy();
    await expect(
      resetPassword(t.db, { userId: "nobody", password: "a brand new password" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lets a user who was throttled by failed sign-ins in with the new password at once", async () => {
    const user = await createUser(t.db, { role: "VIEWER", password: "the old password" });
    for (let i = 0; i < 8; i++)
      await logIn(t.db, { email: user.email, password: `wrong ${i}` }).catch(() => undefined);
    await expect(logIn(t.db, { email: user.email, password: "the old password" })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    await resetPassword(t.db, { userId: user.id, password: "a brand new password" });
    expect(await logIn(t.db, { email: user.email, password: "a brand new password" })).toBeTruthy();
  });
});
