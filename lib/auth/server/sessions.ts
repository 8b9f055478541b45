import "server-only";
/**
 * Sessions: a random token lives only in the httpOnly cookie; the database keeps its SHA-256, so a
 * leaked database dump cannot be replayed as a login.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db";
import { sha256 } from "@/lib/environments/hash";
import { SESSION_TTL_MS } from "../login-policy";
import type { SessionUser } from "../auth.schema";

export type { SessionUser } from "../auth.schema";

/** Refresh lastSeenAt at most this often, so a page load does not write on every request. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export async function createSession(db: Db, userId: string, now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.session.create({ data: { tokenHash: sha256(token), userId, expiresAt } });
  return { token, expiresAt };
}

/** The user behind a session token, or null for an unknown, expired or disabled one. */
export async function findSessionUser(
  db: Db,
  token: string | undefined,
  now = new Date(),
): Promise<SessionUser | null> {
  if (!token) return null;
  const session = await db.session.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: true },
  });
  if (!session || session.expiresAt <= now || session.user.disabledAt) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { id, email, name, role } = session.user;
  return { id, email, name, role };
}

export async function deleteSession(db: Db, token: string | undefined) {
  if (token) await db.session.deleteMany({ where: { tokenHash: sha256(token) } });
}
