/**
 * The first gate of every request (pages, RSC payloads, server actions, API routes), in order:
 *  1. the Host allow-list and the same-origin rule for writes (lib/auth/request-guard.ts) — with or
 *     without a session, so a rebinding or cross-site page cannot act as the localhost admin;
 *  2. input nothing downstream can handle (lib/auth/input-guard.ts): broken URLs, NUL bytes, lone
 *     surrogates, over-deep or non-JSON server-action arguments, bodies over their size limit;
 *  3. the login gate when the login policy requires it (lib/auth/login-policy.ts). Proxy runs on
 *     the Node.js runtime in Next 16, so it validates the session against the database.
 * Server code checks the role again (requireRole / currentUser): this is the first line, not the only
 * one. Every answer carries the security headers (lib/auth/security-headers.ts).
 */
import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import { findBadUrl, parseCheckedJson } from "@/lib/auth/input-guard";
import { isLoginRequired, SESSION_COOKIE } from "@/lib/auth/login-policy";
import {
  checkBodySize,
  checkHost,
  checkWriteOrigin,
  isHttpsConfigured,
  type RequestFacts,
} from "@/lib/auth/request-guard";
import { securityHeaders } from "@/lib/auth/security-headers";
import { findSessionUser } from "@/lib/auth/server/sessions";

/** Reachable without a session: the login page and the readiness probe (answers only ok/not ok). */
const PUBLIC_PATHS = ["/login", "/api/health"];

function withHeaders(response: NextResponse): NextResponse {
  const headers = securityHeaders({
    dev: process.env.NODE_ENV === "development",
    https: isHttpsConfigured(),
  });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function refuse(status: number, code: string, message: string): NextResponse {
  return withHeaders(NextResponse.json({ error: { code, message, retryable: false } }, { status }));
}

function factsOf(request: NextRequest): RequestFacts {
  const h = request.headers;
  return {
    method: request.method,
    host: h.get("host"),
    forwardedHost: h.get("x-forwarded-host"),
    origin: h.get("origin"),
    secFetchSite: h.get("sec-fetch-site"),
  };
}

/** Server-action arguments arrive as a JSON array (text/plain); multipart ones are form posts. */
async function checkActionBody(request: NextRequest): Promise<string | null> {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return null;
  const parsed = parseCheckedJson(await request.clone().text());
  return parsed.ok ? null : `Server action arguments refused: ${parsed.message}`;
}

/** Steps 1 and 2; null when the request may go on. */
async function checkRequest(request: NextRequest): Promise<NextResponse | null> {
  const facts = factsOf(request);
  const refusal = checkHost(facts) ?? checkWriteOrigin(facts);
  if (refusal) return refuse(refusal.status, refusal.code, refusal.message);
  const { pathname, search } = request.nextUrl;
  const badUrl = findBadUrl(pathname, search);
  if (badUrl) return refuse(400, "INVALID_INPUT", badUrl);
  const size = checkBodySize({
    method: request.method,
    pathname,
    contentLength: request.headers.get("content-length"),
    chunked: /chunked/i.test(request.headers.get("transfer-encoding") ?? ""),
  });
  if (size) return refuse(size.status, "INVALID_INPUT", size.message);
  const badBody = await checkActionBody(request);
  return badBody ? refuse(400, "INVALID_INPUT", badBody) : null;
}

export async function proxy(request: NextRequest) {
  const refused = await checkRequest(request);
  if (refused) return refused;
  if (!isLoginRequired()) return withHeaders(NextResponse.next());
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`)))
    return withHeaders(NextResponse.next());
  const user = await findSessionUser(getDb(), request.cookies.get(SESSION_COOKIE)?.value);
  if (user) return withHeaders(NextResponse.next());
  // API calls and server actions (POST with a Next-Action header) get a 401, pages a redirect.
  if (pathname.startsWith("/api/") || request.method !== "GET")
    return refuse(401, "UNAUTHENTICATED", "Sign in to continue.");
  const login = new URL("/login", request.url);
  login.searchParams.set("next", `${pathname}${search}`);
  return withHeaders(NextResponse.redirect(login));
}

export const config = {
  // Static assets carry no data (their headers come from next.config.ts); everything else is gated.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
