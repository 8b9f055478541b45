"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { LoginInputSchema, safeNextPath } from "@/lib/auth/auth.schema";
import { SESSION_COOKIE } from "@/lib/auth/login-policy";
import { clientAddress } from "@/lib/auth/login-throttle";
import { isSecureRequest } from "@/lib/auth/request-guard";
import { logIn } from "@/lib/auth/server/log-in";
import { ANYONE, runAction } from "@/lib/auth/server/run-action";
import { deleteSession } from "@/lib/auth/server/sessions";
import type { ActionResult } from "@/lib/core/result";

/** Secure cookies when configured for HTTPS (ENVSTUDIO_PUBLIC_URL), or when a proxy says so. */
async function isHttps() {
  return isSecureRequest((await headers()).get("x-forwarded-proto"));
}

/** Anyone may call it: this is how a visitor gets a role. Success redirects, so only refusals return. */
export async function loginAction(raw: unknown): Promise<ActionResult<never>> {
  const result = await runAction(raw, LoginInputSchema, ANYONE, async (input) => {
    const session = await logIn(getDb(), input, {
      address: clientAddress((await headers()).get("x-forwarded-for")),
    });
    (await cookies()).set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: "lax",
      secure: await isHttps(),
      path: "/",
      expires: session.expiresAt,
    });
    return safeNextPath(input.next);
  });
  // redirect() works by throwing, so it runs outside runAction, which would report it as an error.
  if (!result.ok) return result;
  redirect(result.value);
}

/** The sign-out form posts FormData, which says nothing: any argument is accepted and ignored. */
export async function logoutAction(raw: unknown): Promise<void> {
  await runAction(raw, z.unknown(), ANYONE, async () => {
    const jar = await cookies();
    const token = jar.get(SESSION_COOKIE)?.value;
    // The browser is signed out even if the database is unreachable; the row then expires unused.
    jar.delete(SESSION_COOKIE);
    await deleteSession(getDb(), token);
  });
  redirect("/login");
}
