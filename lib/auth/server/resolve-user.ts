import "server-only";
/**
 * Who is acting, given the session cookie and the login policy. Kept apart from next/headers so
 * database tests can exercise the whole rule.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { roleAtLeast, type RoleName } from "../roles";
import { findSessionUser, type SessionUser } from "./sessions";

/** Stand-in when no admin row exists yet (tests, a database created without `npm start`). */
export const LOCAL_OPERATOR: SessionUser = {
  id: null,
  email: "local@envstudio",
  name: "Local operator",
  role: "ADMIN",
};

/** The local admin: the oldest enabled ADMIN, created on first start (ensure-admin.ts). */
export async function findLocalAdmin(db: Db): Promise<SessionUser> {
  const admin = await db.user.findFirst({
    where: { role: "ADMIN", disabledAt: null },
    orderBy: { createdAt: "asc" },
  });
  return admin ? { id: admin.id, email: admin.email, name: admin.name, role: admin.role } : LOCAL_OPERATOR;
}

/** null = nobody (login required and no valid session). */
export async function resolveUser(
  db: Db,
  token: string | undefined,
  opts: { loginRequired: boolean },
): Promise<SessionUser | null> {
  const user = await findSessionUser(db, token);
  if (user) return user;
  return opts.loginRequired ? null : findLocalAdmin(db);
}

export function assertRole(user: SessionUser | null, min: RoleName): SessionUser {
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
  if (!roleAtLeast(user.role, min)) {
    throw new AppError(
      "FORBIDDEN",
      `This needs the ${min.toLowerCase()} role; you are signed in as a ${user.role.toLowerCase()}.`,
    );
  }
  return user;
}
