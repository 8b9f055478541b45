import "server-only";
/**
 * The one gate for every mutation (server actions, route handlers that change data, job launches):
 * `const user = await requireRole("REVIEWER")` before doing anything. Throws AppError
 * UNAUTHENTICATED / FORBIDDEN. Pages call `currentUser()` for reads, which sends nobody to sign in.
 *
 * Identity comes from the httpOnly session cookie. Without one, the login policy decides
 * (lib/auth/login-policy.ts): on a loopback HOST, a request from this machine (the connection's peer
 * address) acts as the local admin; anything else is nobody. proxy.ts redirects anonymous visitors
 * first, but this check does not rely on it.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db";
import { connectionOf } from "../client-address";
import { isAnonymousLocalAdmin, SESSION_COOKIE } from "../login-policy";
import type { RoleName } from "../roles";
import { assertRole, findLocalAdmin } from "./resolve-user";
import { findSessionUser, type SessionUser } from "./sessions";

export type { SessionUser } from "./sessions";
export { LOCAL_OPERATOR } from "./resolve-user";

type Identity = { user: SessionUser | null; signedIn: boolean };

/** Memoised per request: a page and its components ask once. */
export const getIdentity = cache(async (): Promise<Identity> => {
  const db = getDb();
  const user = await findSessionUser(db, (await cookies()).get(SESSION_COOKIE)?.value);
  if (user) return { user, signedIn: true };
  const localAdmin = isAnonymousLocalAdmin(connectionOf(await headers()));
  return { user: localAdmin ? await findLocalAdmin(db) : null, signedIn: false };
});

export async function requireRole(min: RoleName): Promise<SessionUser> {
  return assertRole((await getIdentity()).user, min);
}

/**
 * For pages: the signed-in user (or the local admin on loopback). Nobody goes to the sign-in page —
 * also a page re-rendered after its session ended (a refresh still in flight when the user signs
 * out), which would otherwise end in a server error.
 */
export async function currentUser(): Promise<SessionUser> {
  const { user } = await getIdentity();
  if (!user) redirect("/login");
  return assertRole(user, "VIEWER");
}
