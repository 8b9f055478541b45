"use server";
import { cookies, headers } from "next/headers";
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

/**
 * Anyone may call it: this is how a visitor gets a role. Answers the safe page to go to next; the
 * sign-in form goes there with a full load, so nothing the browser held before the sign-in stays.
 */
export async function loginAction(raw: unknown): Promise<ActionResult<{ next: string }>> {
  return runAction(raw, LoginInputSchema, ANYONE, async (input) => {
    const request = await requestFacts();
    const session = await logIn(getDb(), input, { address: request.address });
    (await cookies()).set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: "lax",
      secure: request.secure,
      path: "/",
      expires: session.expiresAt,
    });
    return { next: safeNextPath(input.next) };
  });
}

/** Takes nothing: any argument is accepted and ignored. The sign-out button then loads /login. */
export async function logoutAction(raw: unknown): Promise<ActionResult<void>> {
  return runAction(raw, z.unknown(), ANYONE, async () => {
    const jar = await cookies();
    const token = jar.get(SESSION_COOKIE)?.value;
    // The browser is signed out even if the database is unreachable; the row then expires unused.
    jar.delete(SESSION_COOKIE);
    await deleteSession(getDb(), token);
  });
}
