import "server-only";
/** Admin-only user management (the action layer checks the ADMIN role). */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { CreateUserInput, UpdateUserInput } from "../auth.schema";
import { hashPassword } from "../password";

export async function findUsers(db: Db) {
  return db.user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, role: true, disabledAt: true, createdAt: true },
  });
}

export async function createUser(db: Db, input: CreateUserInput) {
  const existing = await db.user.findUnique({ where: { email: input.email } });
  if (existing) throw new AppError("CONFLICT", `A user with the email ${input.email} already exists.`);
  const { password, ...rest } = input;
  return db.user.create({
    data: { ...rest, passwordHash: await hashPassword(password) },
    select: { id: true, email: true, role: true },
  });
}

/** Changing a role or disabling ends the user's sessions, so the change applies immediately. */
export async function updateUser(db: Db, input: UpdateUserInput, actorId: string | null) {
  if (input.userId === actorId && (input.disabled || (input.role && input.role !== "ADMIN"))) {
    throw new AppError("INVALID_INPUT", "You cannot demote or disable yourself; ask another admin.");
  }
  return db.$transaction(async (tx) => {
    if (!(await tx.user.findUnique({ where: { id: input.userId }, select: { id: true } })))
      throw new AppError("NOT_FOUND", "User was not found.");
    const user = await tx.user.update({
      where: { id: input.userId },
      data: {
        role: input.role,
        disabledAt: input.disabled === undefined ? undefined : input.disabled ? new Date() : null,
      },
      select: { id: true, email: true, role: true, disabledAt: true },
    });
    await tx.session.deleteMany({ where: { userId: input.userId } });
    return user;
  });
}
