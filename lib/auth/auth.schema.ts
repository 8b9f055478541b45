import { z } from "zod";
import { ROLES, type RoleName } from "./roles";

/** Who is acting. `id` is null only for the stand-in local operator when no admin row exists. */
export type SessionUser = { id: string | null; email: string; name: string; role: RoleName };

export const RoleSchema = z.enum(ROLES);

/**
 * An account name shaped like an email: local part, "@", domain. Deliberately looser than zod's
 * .email(), which wants a dotted domain and so refused the first-start admin `admin@localhost`
 * (the browser's own type="email" check accepts it too).
 */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "at most 254 characters")
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u, "enter an email address");

export const LoginInputSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, "enter your password").max(200),
  next: z.string().max(2000).optional(),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

export const MIN_PASSWORD_LENGTH = 10;

export const CreateUserInputSchema = z.object({
  email: EmailSchema,
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

const SAFE_NEXT_BASE = "http://studio.invalid";

/**
 * Only same-origin paths are followed after login (no open redirect). Browsers treat `\` like `/`
 * and drop tabs/newlines, so `/\evil.example` or `/\t/evil.example` mean `//evil.example`; resolving
 * against a fixed origin and requiring it back catches every such spelling, not just the ones listed.
 */
export function safeNextPath(next: unknown): string {
  // `?next=a&next=b` arrives as an array: not a path.
  if (typeof next !== "string" || !next.startsWith("/") || /[\\\p{Cc}]/u.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, SAFE_NEXT_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== SAFE_NEXT_BASE || url.pathname.startsWith("//") || url.pathname.startsWith("/login"))
    return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
