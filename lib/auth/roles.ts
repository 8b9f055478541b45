/** Roles, weakest first: a role may do everything the roles before it may. */
export const ROLES = ["VIEWER", "REVIEWER", "ADMIN"] as const;
export type RoleName = (typeof ROLES)[number];

export const roleAtLeast = (role: RoleName, min: RoleName) => ROLES.indexOf(role) >= ROLES.indexOf(min);
