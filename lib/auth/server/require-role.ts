/**
 * The one gate for every mutation (server actions, route handlers that change data, job launches):
 * `const user = await requireRole("REVIEWER")` before doing anything. Throws AppError
 * UNAUTHENTICATED / FORBIDDEN.
 *
 * PLACEHOLDER until local accounts land (issue 6): every caller is the local operator with the
 * ADMIN role. The signature is the contract other domains code against.
 */
import type { RoleName } from "../roles";

export type SessionUser = { id: string | null; email: string; name: string; role: RoleName };

export const LOCAL_OPERATOR: SessionUser = { id: null, email: "local@envstudio", name: "Local operator", role: "ADMIN" };

export function requireRole(_min: RoleName): Promise<SessionUser> {
  return Promise.resolve(LOCAL_OPERATOR);
}

/** The signed-in user for reads (pages); same placeholder. */
export function currentUser(): Promise<SessionUser> {
  return Promise.resolve(LOCAL_OPERATOR);
}
