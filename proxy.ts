/**
 * Login gate for every page, action and API route when the login policy requires it
 * (lib/auth/login-policy.ts). Proxy runs on the Node.js runtime in Next 16, so it validates the
 * session against the database rather than trusting the cookie's presence. Server code checks the
 * role again (requireRole): this gate is the first line, not the only one.
 */
import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { isLoginRequired, SESSION_COOKIE } from "@/lib/auth/login-policy";
import { findSessionUser } from "@/lib/auth/server/sessions";

/** Reachable without a session: the login page and the readiness probe (answers only ok/not ok). */
const PUBLIC_PATHS = ["/login", "/api/health"];

export async function proxy(request: NextRequest) {
  if (!isLoginRequired()) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return NextResponse.next();
  const user = await findSessionUser(getDb(), request.cookies.get(SESSION_COOKIE)?.value);
  if (user) return NextResponse.next();
  // API calls and server actions (POST with a Next-Action header) get a 401, pages a redirect.
  if (pathname.startsWith("/api/") || request.method !== "GET") {
    return NextResponse.json({ error: { code: "UNAUTHENTICATED", message: "Sign in to continue.", retryable: false } }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Static assets carry no data; everything else (pages, RSC payloads, actions, API) is gated.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
