import "server-only";
/**
 * First start: when no user exists, create the admin from ENVSTUDIO_ADMIN_EMAIL /
 * ENVSTUDIO_ADMIN_PASSWORD, or with a generated one-time password that the caller prints once.
 * Idempotent: with any user present it does nothing.
 */
import type { Db } from "@/lib/db";
import { generatePassword, hashPassword } from "../password";

export type EnsureAdminResult =
  { created: false } | { created: true; email: string; generatedPassword: string | null };

export async function ensureAdmin(
  db: Db,
  env: { email?: string; password?: string },
): Promise<EnsureAdminResult> {
  if ((await db.user.count()) > 0) return { created: false };
  const email = (env.email?.trim() || "admin@localhost").toLowerCase();
  const generatedPassword = env.password ? null : generatePassword();
  const password = env.password ?? generatedPassword ?? "";
  // A concurrent first start loses the unique-email race harmlessly.
  const created = await db.user.createMany({
    data: [{ email, name: "Admin", role: "ADMIN", passwordHash: await hashPassword(password) }],
    skipDuplicates: true,
  });
  return created.count ? { created: true, email, generatedPassword } : { created: false };
}
