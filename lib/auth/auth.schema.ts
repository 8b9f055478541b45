import { z } from "zod";
import { ROLES, type RoleName } from "./roles";

/** Who is acting. `id` is null only for the stand-in local operator when no admin row exists. */
export type SessionUser = { id: string | null; email: string; name: string; role: RoleName };

export const RoleSchema = z.enum(ROLES);

export const LoginInputSchema = z.object({
  email: z.string().trim().toLowerCase().email("enter an email address"),
  password: z.string().min(1, "enter your password").max(200),
  next: z.string().optional(),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

export const MIN_PASSWORD_LENGTH = 10;

export const CreateUserInputSchema = z.object({
  email: z.string().trim().toLowerCase().email("enter an email address"),
  name: z.string().trim().min(1, "enter a name").max(100),
  role: RoleSchema,
  password: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(200),
});
export type CreateUserInput = z.infer<typeof CreateUserInputSchema>;

export const UpdateUserInputSchema = z.object({
  userId: z.string().min(1),
  role: RoleSchema.optional(),
  disabled: z.boolean().optional(),
});
export type UpdateUserInput = z.infer<typeof UpdateUserInputSchema>;

/** Only same-site relative paths are followed after login (no open redirect). */
export function safeNextPath(next: string | undefined | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/login") ? next : "/";
}
