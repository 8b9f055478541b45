import "server-only";
/** Admin-only (the action checks ADMIN): a new password for a user; their sessions end. */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { hashPassword } from "../password";
import type { ResetPasswordInput } from "../reset-password.schema";

export async function resetPassword(db: Db, input: ResetPasswordInput) {
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
    if (!user) throw new AppError("NOT_FOUND", "User was not found.");
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId: user.id } });
    // Like a successful sign-in, a reset clears the account's failed-attempt count (log-in.ts), so a
    // user locked out by guessing can use the new password at once; the failures stay on record.
    await tx.loginAttempt.create({ data: { email: user.email, address: "password-reset", succeeded: true } });
    return user;
  });
}
