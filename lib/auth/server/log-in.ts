import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { LoginInput } from "../auth.schema";
import { hashPassword, verifyPassword } from "../password";
import { createSession } from "./sessions";

/** Hash of a throwaway password: unknown emails cost the same time as wrong passwords. */
let dummyHash: Promise<string> | null = null;

/** Checks the credentials and opens a session; one message for every failure (no account probing). */
export async function logIn(db: Db, input: Pick<LoginInput, "email" | "password">) {
  const user = await db.user.findUnique({ where: { email: input.email } });
  dummyHash ??= hashPassword("not-a-real-password");
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
  if (!user || !valid || user.disabledAt) throw new AppError("UNAUTHENTICATED", "Wrong email or password.");
  return createSession(db, user.id);
}
