/**
 * Who is on the other end of a request. Next.js gives pages, actions, route handlers and proxy.ts
 * no socket: it only fills `X-Forwarded-For` when the client sent none, so any client can name any
 * address there. The studio's web server (scripts/start-web.ts) therefore stamps every request with
 * the socket's peer address in PEER_HEADER, replacing whatever a client sent under that name, and
 * marks the process as stamping. Forwarded headers count only when that peer is one of
 * ENVSTUDIO_TRUSTED_PROXIES. Served any other way (plain `next start`), the peer is unknown: nobody
 * acts as the anonymous local admin and sign-in throttling counts every client as one address.
 */
import { readEnv } from "../env";
import { type IpRanges, normalizeIp } from "./ip-ranges";

export const PEER_HEADER = "x-envstudio-peer";

/**
 * Set by the web server in its own process, so a PEER_HEADER reaching a studio served by anything
 * else (where a client could have written it) is ignored. Symbol.for: the server's module and the
 * app's bundled copy of this file share one global registry.
 */
const STAMPING = Symbol.for("envstudio.web-server.stamps-peer-address");
type Flagged = { [STAMPING]?: boolean };

export function markPeerStamping(): void {
  (globalThis as Flagged)[STAMPING] = true;
}

export type Connection = {
  /** The client's address, or null when the studio cannot know it. */
  address: string | null;
  /** Came through a trusted proxy: its X-Forwarded-Proto and X-Forwarded-Host are believed. */
  viaTrustedProxy: boolean;
  /**
   * An untrusted peer says it forwards for someone else (a reverse proxy that is not listed in
   * ENVSTUDIO_TRUSTED_PROXIES): the peer's own address then says nothing about the real client.
   */
  forwardedByUntrustedPeer: boolean;
};

type Forwarding = { forwardedFor: string | null; forwarded: string | null; realIp: string | null };

const UNKNOWN: Connection = { address: null, viaTrustedProxy: false, forwardedByUntrustedPeer: false };

/** Right to left, each trusted hop vouches for the address it appended; the first untrusted one is the client. */
function clientBehindProxies(peer: string, forwardedFor: string | null, trusted: IpRanges): string {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  let address = peer;
  for (const hop of hops) {
    const ip = normalizeIp(hop);
    // Not an address: the last hop a trusted proxy vouched for is as far as anything is known.
    if (!ip) break;
    address = ip;
    if (!trusted.has(ip)) break;
  }
  return address;
}

export function resolveConnection(
  peer: string | null,
  forwarding: Forwarding,
  trusted: IpRanges,
): Connection {
  const peerIp = peer === null ? null : normalizeIp(peer);
  if (!peerIp) return UNKNOWN;
  if (trusted.has(peerIp))
    return {
      address: clientBehindProxies(peerIp, forwarding.forwardedFor, trusted),
      viaTrustedProxy: true,
      forwardedByUntrustedPeer: false,
    };
  // Next.js itself fills X-Forwarded-For with the peer's address when it is absent.
  const forwardedFor = forwarding.forwardedFor?.trim();
  const claimsForwarding =
    Boolean(forwarding.forwarded || forwarding.realIp) ||
    Boolean(forwardedFor && normalizeIp(forwardedFor) !== peerIp);
  return { address: peerIp, viaTrustedProxy: false, forwardedByUntrustedPeer: claimsForwarding };
}

type HeaderSource = { get: (name: string) => string | null };

/** The connection behind a request's headers (proxy.ts, actions, pages). */
export function connectionOf(headers: HeaderSource, env: Record<string, string | undefined> = process.env) {
  if ((globalThis as Flagged)[STAMPING] !== true) return UNKNOWN;
  const trusted = readEnv("ENVSTUDIO_TRUSTED_PROXIES", env);
  return resolveConnection(
    headers.get(PEER_HEADER),
    {
      forwardedFor: headers.get("x-forwarded-for"),
      forwarded: headers.get("forwarded"),
      realIp: headers.get("x-real-ip"),
    },
    trusted,
  );
}
