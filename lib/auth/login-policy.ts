/**
 * When must a visitor sign in? The rule (documented in docs/security.md, "When login is required"):
 * - the studio listens on a non-loopback HOST (reachable from the network), or
 * - ENVSTUDIO_REQUIRE_LOGIN=1 forces it (e.g. behind a reverse proxy on localhost), or
 * - the request does not come from this machine: its connection's peer address (the client's,
 *   through trusted proxies) is not loopback, unknown, or forwarded by an untrusted proxy.
 * Otherwise a visitor without a session acts as the local admin, so `npm start` stays frictionless
 * for one person on their own machine. A signed-in user always acts as themselves.
 * The last rule follows the connection, not a setting or a Host header: a studio bound to every
 * interface while HOST says loopback must not make a remote client sending `Host: localhost` an admin.
 */
import { isLoopbackHost } from "../env";
import type { Connection } from "./client-address";
import { isLoopbackIp } from "./ip-ranges";

export const SESSION_COOKIE = "envstudio_session";
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

type Env = Record<string, string | undefined>;

/** The studio-wide part of the rule: the configuration alone requires login. */
export function isLoginRequired(env: Env = process.env): boolean {
  if (env.ENVSTUDIO_REQUIRE_LOGIN === "1") return true;
  return !isLoopbackHost((env.HOST ?? "127.0.0.1").trim());
}

/** Whether this request, without a session, acts as the local admin. */
export function isAnonymousLocalAdmin(connection: Connection, env: Env = process.env): boolean {
  return !isLoginRequired(env) && !connection.forwardedByUntrustedPeer && isLoopbackIp(connection.address);
}

/**
 * A studio that lets anonymous visitors act as the admin must listen on loopback only. `address` is
 * the one the server actually bound (HOST=localhost may resolve elsewhere). Null when safe.
 */
export function refuseLoginlessBind(address: string, env: Env = process.env): string | null {
  if (isLoginRequired(env) || isLoopbackIp(address)) return null;
  return `The studio is bound to ${address}, which is not a loopback address, but login is not required (HOST=${env.HOST ?? "127.0.0.1"}). Set HOST to the address to listen on, or ENVSTUDIO_REQUIRE_LOGIN=1.`;
}
