"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { LoginInputSchema, safeNextPath } from "@/lib/auth/auth.schema";
import { SESSION_COOKIE } from "@/lib/auth/login-policy";
import { clientAddress } from "@/lib/auth/login-throttle";
import { isSecureRequest } from "@/lib/auth/request-guard";
import { logIn } from "@/lib/auth/server/log-in";
import { toActionError, type ActionResult } from "@/lib/auth/server/run-action";
import { deleteSession } from "@/lib/auth/server/sessions";

/** Secure cookies when configured for HTTPS (ENVSTUDIO_PUBLIC_URL), or when a proxy says so. */
async function isHttps() {
  return isSecureRequest((await headers()).get("x-forwarded-proto"));
}

/** No role check: this is how a visitor gets one. */
export async function loginAction(raw: unknown): Promise<ActionResult<never>> {
  const input = LoginInputSchema.safeParse(raw);
  if (!input.success) return { ok: false, error: { code: "INVALID_INPUT", message: input.error.issues[0]?.message ?? "invalid input" } };
  let session;
  try {
    session = await logIn(getDb(), input.data, { address: clientAddress((await headers()).get("x-forwarded-for")) });
  } catch (error) {
    return { ok: false, error: toActionError(error) };
  }
  (await cookies()).set(SESSION_COOKIE, session.token, {
    httpOnly: true, sameSite: "lax", secure: await isHttps(), path: "/", expires: session.expiresAt,
  });
  redirect(safeNextPath(input.data.next));
}

export async function logoutAction(): Promise<void> {
  const jar = await cookies();
  await deleteSession(getDb(), jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
  redirect("/login");
}
