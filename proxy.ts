/**
 * The first gate of every request (pages, RSC payloads, server actions, API routes), in order:
 *  1. the Host allow-list and the same-origin rule for writes (lib/auth/request-guard.ts) — with or
 *     without a session, so a rebinding or cross-site page cannot act as the localhost admin;
 *  2. input nothing downstream can handle (lib/auth/input-guard.ts): broken URLs, NUL bytes, lone
 *     surrogates, server-action arguments that are not UTF-8, not JSON, over-deep, not an array or
 *     not plain values, and bodies over their size limit;
 *  3. the login gate unless the request acts as the anonymous local admin (lib/auth/login-policy.ts:
 *     login-less HOST and a connection from this machine). Proxy runs on the Node.js runtime in
 *     Next 16, so it validates the session against the database.
 * Server code checks the role again (requireRole / currentUser): this is the first line, not the only
 * one. Every answer carries the security headers (lib/auth/security-headers.ts).
 */
import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db";
import {
  decodeUtf8,
  findBadActionArguments,
  findBadUrl,
  NOT_UTF8_MESSAGE,
  parseCheckedJson,
} from "@/lib/auth/input-guard";
import { connectionOf, type Connection } from "@/lib/auth/client-address";
import { isAnonymousLocalAdmin, SESSION_COOKIE } from "@/lib/auth/login-policy";
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

function factsOf(request: NextRequest, connection: Connection): RequestFacts {
  const h = request.headers;
  return {
    method: request.method,
    host: h.get("host"),
    // Next.js fills X-Forwarded-Host from Host when absent; a client-sent one counts only via a trusted proxy.
    forwardedHost: connection.viaTrustedProxy ? h.get("x-forwarded-host") : null,
    origin: h.get("origin"),
    secFetchSite: h.get("sec-fetch-site"),
  };
}

/** The arguments' JSON: the body, or its field "0" when an argument is FormData (multipart). */
async function actionArgumentsJson(request: NextRequest, body: string, multipart: boolean) {
  if (!multipart) return body;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const root = form?.get("0");
  return typeof root === "string" ? root : null;
}

/** Server-action arguments: a JSON array of plain values. No action takes a file, so the body is UTF-8. */
async function checkActionBody(request: NextRequest): Promise<string | null> {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  const refused = (why: string) => `Server action arguments refused: ${why}`;
  const body = decodeUtf8(await request.clone().arrayBuffer());
  if (body === null) return refused(NOT_UTF8_MESSAGE);
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const json = await actionArgumentsJson(request, body, multipart);
  if (json === null) return refused("the multipart body has no arguments field.");
  const parsed = parseCheckedJson(json);
  if (!parsed.ok) return refused(parsed.message);
  const bad = findBadActionArguments(parsed.value, { multipart });
  return bad ? refused(`${bad}.`) : null;
}

/** Steps 1 and 2; null when the request may go on. */
async function checkRequest(request: NextRequest, connection: Connection): Promise<NextResponse | null> {
  const facts = factsOf(request, connection);
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
  const connection = connectionOf(request.headers);
  const refused = await checkRequest(request, connection);
  if (refused) return refused;
  if (isAnonymousLocalAdmin(connection)) return withHeaders(NextResponse.next());
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

/**
 * Static assets carry no data (their headers come from next.config.ts); everything else is gated.
 * Each exception is a whole path segment (`/_next/static/…`, `/_next/image`, `/favicon.ico`): an
 * unanchored prefix would also skip the gate for `/favicon.icox` or `/_next/staticky`.
 */
export const config = {
  matcher: ["/((?!_next/static/|_next/image$|favicon\\.ico$).*)"],
};
