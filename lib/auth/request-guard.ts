/**
 * Which requests the studio answers at all (pure; proxy.ts applies it to every request).
 *
 * - Host allow-list: a page on a rebinding domain (evil.example re-pointed to 127.0.0.1) sends
 *   `Host: evil.example` and a matching Origin, which passes any same-origin check — and on
 *   localhost an anonymous visitor acts as the local admin. Only loopback names, the configured
 *   HOST and the names in ENVSTUDIO_PUBLIC_URL are answered.
 * - Cross-site writes: every method but GET/HEAD/OPTIONS must come from the studio's own origin.
 *   Browsers send `Origin` on every non-GET request and `Sec-Fetch-Site` on every request, even
 *   no-cors ones a page cannot read the answer of; a request with neither is not from a browser
 *   page (curl, scripts), so it cannot be a forged one. This holds with or without a session.
 */
import { DEFAULT_MAX_IMPORT_BYTES } from "../import/read-files";
import { readEnv } from "../env";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];
/** Listening on these means "every interface": they say nothing about the names clients use. */
const WILDCARD_HOSTS = ["0.0.0.0", "::", "[::]"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

type Env = Record<string, string | undefined>;

/** ENVSTUDIO_PUBLIC_URL: comma-separated addresses users reach the studio at (behind a proxy, say). */
export function publicUrls(env: Env = process.env): URL[] {
  return (env.ENVSTUDIO_PUBLIC_URL ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((s) => {
      try {
        return [new URL(s)];
      } catch {
        return [];
      }
    });
}

/** Session cookies get `Secure` when the studio is configured to be reached over HTTPS. */
export const isHttpsConfigured = (env: Env = process.env) =>
  publicUrls(env).some((u) => u.protocol === "https:");

const bare = (hostname: string) =>
  hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");

/** The host names this studio answers to. */
export function allowedHostnames(env: Env = process.env): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const host = env.HOST?.trim();
  if (host && !WILDCARD_HOSTS.includes(host)) names.add(bare(host));
  for (const url of publicUrls(env)) names.add(bare(url.hostname));
  return names;
}

/** The hostname of a Host header (`name`, `name:port`, `[v6]:port`), or null when malformed. */
export function hostnameOf(hostHeader: string | null): string | null {
  if (!hostHeader || /[/?#@\\\s]/.test(hostHeader)) return null;
  try {
    return bare(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return null;
  }
}

export type RequestFacts = {
  method: string;
  host: string | null;
  forwardedHost: string | null;
  origin: string | null;
  secFetchSite: string | null;
};

export type Refusal = { status: 400 | 403 | 421; code: "FORBIDDEN" | "INVALID_INPUT"; message: string };

export function checkHost(facts: RequestFacts, env: Env = process.env): Refusal | null {
  const name = hostnameOf(facts.host);
  if (!name)
    return { status: 400, code: "INVALID_INPUT", message: "The Host header is missing or malformed." };
  if (allowedHostnames(env).has(name)) return null;
  return {
    status: 421,
    code: "FORBIDDEN",
    message: `This studio does not answer to the host name "${name}". If that is its public name, add it to ENVSTUDIO_PUBLIC_URL.`,
  };
}

/** Refuses a state-changing request that a browser sent from another origin (or another port). */
export function checkWriteOrigin(facts: RequestFacts, env: Env = process.env): Refusal | null {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return null;
  const refuse = (why: string): Refusal => ({
    status: 403,
    code: "FORBIDDEN",
    message: `Cross-site request refused: ${why}.`,
  });
  const site = facts.secFetchSite?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return refuse(`the browser reports it as ${site}`);
  if (facts.origin === null) return null;
  let origin: URL;
  try {
    origin = new URL(facts.origin);
  } catch {
    return refuse(`its origin "${facts.origin}" is not this studio`);
  }
  const ownHosts = [facts.forwardedHost, facts.host]
    .filter((h): h is string => Boolean(h))
    .map((h) => h.toLowerCase());
  if (ownHosts.includes(origin.host.toLowerCase())) return null;
  if (publicUrls(env).some((u) => u.origin === origin.origin)) return null;
  return refuse(`its origin ${origin.origin} is not this studio`);
}

/**
 * Cookies get `Secure` when configured for HTTPS, or when a trusted TLS-terminating proxy says the
 * request came over HTTPS (anyone else could send `X-Forwarded-Proto: https` over plain HTTP).
 */
export const isSecureRequest = (
  request: { forwardedProto: string | null; viaTrustedProxy: boolean },
  env: Env = process.env,
) => isHttpsConfigured(env) || (request.viaTrustedProxy && request.forwardedProto === "https");

/** Bodies of actions and JSON routes: Next caps server-action bodies at 1 MB too. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The one upload limit (POST /api/imports, a whole request): ENVSTUDIO_IMPORT_MAX_BYTES, default
 * 200 MiB — the same number `envstudio import` applies per file. next.config.ts sizes the proxy's
 * body buffer from it, so nothing under the limit is truncated.
 */
export function uploadMaxBytes(env: Env = process.env): number {
  return readEnv("ENVSTUDIO_IMPORT_MAX_BYTES", env) ?? DEFAULT_MAX_IMPORT_BYTES;
}

const MIB = 1024 * 1024;
const describeBytes = (n: number) => (n >= MIB ? `${Math.round((n / MIB) * 10) / 10} MiB` : `${n} bytes`);

/** 413/411 for a write whose declared size is over its limit, or that declares none. */
export function checkBodySize(
  facts: { method: string; pathname: string; contentLength: string | null; chunked: boolean },
  env: Env = process.env,
): { status: 411 | 413; message: string } | null {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return null;
  const isUpload = facts.pathname === "/api/imports";
  const limit = isUpload ? uploadMaxBytes(env) : JSON_BODY_MAX_BYTES;
  if (facts.contentLength === null) {
    return facts.chunked ? { status: 411, message: "Send the request with a Content-Length header." } : null;
  }
  const size = Number(facts.contentLength);
  if (Number.isFinite(size) && size <= limit) return null;
  const what = isUpload
    ? `Imports are limited to ${describeBytes(limit)} per upload (ENVSTUDIO_IMPORT_MAX_BYTES)`
    : `Request bodies are limited to ${describeBytes(limit)}`;
  return {
    status: 413,
    message: `${what}; this one is ${Number.isFinite(size) ? describeBytes(size) : "of unknown size"}.`,
  };
}
