/**
 * When must a visitor sign in? The rule (documented in README "Users and roles"):
 * - the studio listens on a non-loopback HOST (reachable from the network), or
 * - ENVSTUDIO_REQUIRE_LOGIN=1 forces it (e.g. behind a reverse proxy on localhost).
 * Otherwise a visitor without a session acts as the local admin, so `npm start` stays frictionless
 * for one person on their own machine. A signed-in user always acts as themselves.
 */
import { isLoopbackHost } from "../env";

export const SESSION_COOKIE = "envstudio_session";
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export function isLoginRequired(env: Record<string, string | undefined> = process.env): boolean {
  if (env.ENVSTUDIO_REQUIRE_LOGIN === "1") return true;
  return !isLoopbackHost((env.HOST ?? "127.0.0.1").trim());
}
