/**
 * Who may talk to the environment server.
 *
 * Upstream OpenEnv clients send no credentials of their own (`GenericEnvClient` opens `<base>/ws`
 * with no headers; `validate_running_environment` uses bare `requests.get`), so:
 * - on a loopback bind with no token configured the server is open, like the studio without login;
 *   it then refuses requests whose Host is not a loopback name (DNS rebinding) and requests a web
 *   page makes (a non-loopback Origin), since browsers are the only clients that send those;
 * - otherwise (any other bind, or ENVSTUDIO_SERVE_TOKEN set) every route but /health needs the token,
 *   given as `Authorization: Bearer <token>`, as HTTP Basic credentials with the token as password
 *   (what `requests` and `websockets` send for a URL like `http://user:<token>@host:port`, the one
 *   way upstream's clients can carry it unchanged), or as `?token=<token>`.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isLoopbackHost } from "../env";

export type AccessPolicy = { token: string | null };

/** Open (no token) only when bound to loopback and no token was configured. */
export function accessPolicy(
  host: string,
  configuredToken: string | undefined,
  generate: () => string,
): AccessPolicy {
  if (configuredToken) return { token: configuredToken };
  return { token: isLoopbackHost(host) ? null : generate() };
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every secret the request offers: bearer, basic password (or bare user), query `token`. */
function offeredSecrets(req: IncomingMessage): string[] {
  const out: string[] = [];
  const header = req.headers.authorization ?? "";
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer?.[1]) out.push(bearer[1].trim());
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1].trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const [user, password] = colon < 0 ? [decoded, ""] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
    out.push(password || user);
  }
  const query = new URL(req.url ?? "/", "http://x").searchParams.get("token");
  if (query) out.push(query);
  return out;
}

const hostName = (value: string) => {
  try {
    return new URL(`http://${value}`).hostname;
  } catch {
    return "";
  }
};

/** Why the request is refused, or null when it may proceed. */
export function refusal(
  req: IncomingMessage,
  policy: AccessPolicy,
): { status: 401 | 403; message: string } | null {
  if (policy.token !== null) {
    const token = policy.token;
    return offeredSecrets(req).some((s) => sameSecret(s, token))
      ? null
      : {
          status: 401,
          message: "missing or wrong token (Authorization: Bearer, Basic password, or ?token=)",
        };
  }
  if (!isLoopbackHost(hostName(req.headers.host ?? "")))
    return { status: 403, message: "this server answers only requests addressed to a loopback host" };
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackHost(hostName(origin.replace(/^[a-z]+:\/\//i, ""))))
    return { status: 403, message: "requests from web pages are refused" };
  return null;
}
