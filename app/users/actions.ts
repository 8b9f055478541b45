"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { CreateUserInputSchema, UpdateUserInputSchema } from "@/lib/auth/auth.schema";
import { createUser, updateUser } from "@/lib/auth/server/manage-users";
import { runAction } from "@/lib/auth/server/run-action";
import { ResetPasswordInputSchema } from "@/lib/auth/reset-password.schema";
import { resetPassword } from "@/lib/auth/server/reset-password";

export async function createUserAction(raw: unknown) {
  return runAction(raw, CreateUserInputSchema, "ADMIN", async (input) => {
    const user = await createUser(getDb(), input);
    revalidatePath("/users");
    return user;
  });
}

export async function updateUserAction(raw: unknown) {
  return runAction(raw, UpdateUserInputSchema, "ADMIN", async (input, actor) => {
    const user = await updateUser(getDb(), input, actor.id);
    revalidatePath("/users");
    return user;
  });
}

/** Admins set a new password for a user; the user's sessions end. */
export async function resetPasswordAction(raw: unknown) {
  return runAction(raw, ResetPasswordInputSchema, "ADMIN", async (input) => {
    const user = await resetPassword(getDb(), input);
    revalidatePath("/users");
    return user;
  });
}
