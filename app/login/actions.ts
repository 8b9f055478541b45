"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { LoginInputSchema, safeNextPath } from "@/lib/auth/auth.schema";
import { SESSION_COOKIE } from "@/lib/auth/login-policy";
import { connectionOf } from "@/lib/auth/client-address";
import { isSecureRequest } from "@/lib/auth/request-guard";
import { logIn } from "@/lib/auth/server/log-in";
import { ANYONE, runAction } from "@/lib/auth/server/run-action";
import { deleteSession } from "@/lib/auth/server/sessions";
import type { ActionResult } from "@/lib/core/result";

/**
 * The address sign-in throttling counts (the connection's, see lib/auth/client-address.ts) and
 * whether the session cookie is Secure (HTTPS configured in ENVSTUDIO_PUBLIC_URL, or a trusted proxy
 * says so).
 */
async function requestFacts() {
  const h = await headers();
  const connection = connectionOf(h);
  return {
    address: connection.address ?? "unknown",
    secure: isSecureRequest({ forwardedProto: h.get("x-forwarded-proto"), ...connection }),
  };
}

/** Anyone may call it: this is how a visitor gets a role. Success redirects, so only refusals return. */
export async function loginAction(raw: unknown): Promise<ActionResult<never>> {
  const result = await runAction(raw, LoginInputSchema, ANYONE, async (input) => {
    const request = await requestFacts();
    const session = await logIn(getDb(), input, { address: request.address });
    (await cookies()).set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: "lax",
      secure: request.secure,
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
