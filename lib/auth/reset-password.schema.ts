import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./auth.schema";

/** An admin sets a new password for a user (who then signs in with it; old sessions end). */
export const ResetPasswordInputSchema = z.object({
  userId: z.string().min(1),
  password: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(200),
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordInputSchema>;
