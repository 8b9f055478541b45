/**
 * Who is on the other end (lib/auth/client-address.ts) and what that grants (login-policy.ts):
 * forwarded headers count only from ENVSTUDIO_TRUSTED_PROXIES, and the anonymous local admin
 * follows the connection's peer address, never a Host header or HOST alone.
 */
import { describe, expect, it } from "vitest";
import { readEnv } from "../env";
import { markPeerStamping, connectionOf, PEER_HEADER, resolveConnection } from "./client-address";
import { isLoopbackIp, normalizeIp, parseIpRanges } from "./ip-ranges";
import { isAnonymousLocalAdmin, refuseLoginlessBind } from "./login-policy";

const ranges = (text: string) => {
  const parsed = parseIpRanges(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const NONE = ranges("");
const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
const forwarding = (forwardedFor: string | null) => ({ forwardedFor, forwarded: null, realIp: null });

describe("IP ranges (ENVSTUDIO_TRUSTED_PROXIES)", () => {
  it("matches addresses and CIDR ranges of both families, IPv4 on dual-stack sockets included", () => {
    const trusted = ranges("10.0.0.0/8, 192.0.2.1, fd00::/8, ::1");
    expect(trusted.size).toBe(4);
    for (const ip of ["10.1.2.3", "192.0.2.1", "::ffff:10.9.9.9", "fd00::5", "::1", "[::1]"])
      expect(trusted.has(ip), ip).toBe(true);
    for (const ip of ["11.0.0.1", "192.0.2.2", "fe80::1", "127.0.0.1", "garbage", ""])
      expect(trusted.has(ip), ip).toBe(false);
    expect(normalizeIp("::FFFF:192.0.2.7")).toBe("192.0.2.7");
    expect(normalizeIp("192.0.2.7:1234")).toBeNull();
  });

  it("refuses what is not an address or a range, with the entry in the message", () => {
    for (const bad of ["10.0.0.0/33", "proxy.example", "10.0.0.1/8/8", "::1/129", "10.0.0.0/-1"])
      expect(parseIpRanges(bad)).toMatchObject({
        ok: false,
        message: expect.stringContaining(bad) as string,
      });
    expect(() => readEnv("ENVSTUDIO_TRUSTED_PROXIES", { ENVSTUDIO_TRUSTED_PROXIES: "nginx" })).toThrow(
      /^Invalid configuration: ENVSTUDIO_TRUSTED_PROXIES: "nginx" is not an IP address or a CIDR range/,
    );
    expect(readEnv("ENVSTUDIO_TRUSTED_PROXIES", {}).size).toBe(0);
  });

  it("knows loopback: 127.0.0.0/8 and ::1, on dual-stack sockets too", () => {
    for (const ip of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"])
      expect(isLoopbackIp(ip), ip).toBe(true);
    for (const ip of ["192.0.2.2", "0.0.0.0", "::", "localhost", null])
      expect(isLoopbackIp(ip), String(ip)).toBe(false);
  });
});

describe("the client's address", () => {
  it("is the socket peer when no trusted proxy is configured, whatever X-Forwarded-For says", () => {
    expect(resolveConnection("192.0.2.50", forwarding("203.0.113.9"), NONE)).toEqual({
      address: "192.0.2.50",
      viaTrustedProxy: false,
      forwardedByUntrustedPeer: true,
    });
    // Next.js fills X-Forwarded-For with the peer itself when the client sent none.
    expect(resolveConnection("::ffff:192.0.2.50", forwarding("192.0.2.50"), NONE)).toEqual({
      address: "192.0.2.50",
      viaTrustedProxy: false,
      forwardedByUntrustedPeer: false,
    });
  });

  it("through trusted proxies, is the right-most hop no trusted proxy vouches for", () => {
    const trusted = ranges("10.0.0.0/8");
    // The client wrote "1.1.1.1"; the edge proxy appended the real client, the inner one the edge.
    const chain = forwarding("1.1.1.1, 203.0.113.9, 10.0.0.2");
    expect(resolveConnection("10.0.0.3", chain, trusted)).toEqual({
      address: "203.0.113.9",
      viaTrustedProxy: true,
      forwardedByUntrustedPeer: false,
    });
    expect(resolveConnection("10.0.0.3", forwarding(null), trusted).address).toBe("10.0.0.3");
    expect(resolveConnection("10.0.0.3", forwarding("10.0.0.2, 10.0.0.1"), trusted).address).toBe("10.0.0.2");
    // Garbage a trusted proxy passed on: the last hop it vouched for.
    expect(resolveConnection("10.0.0.3", forwarding("203.0.113.9, nonsense"), trusted).address).toBe(
      "10.0.0.3",
    );
    // An untrusted peer's X-Forwarded-For is never read, even if it names a trusted address.
    expect(resolveConnection("192.0.2.50", forwarding("10.0.0.2"), trusted).address).toBe("192.0.2.50");
  });

  it("is unknown when the peer is (a studio not served by scripts/start-web.ts)", () => {
    expect(resolveConnection(null, forwarding("127.0.0.1"), NONE).address).toBeNull();
    expect(resolveConnection("", forwarding(null), NONE).address).toBeNull();
  });

  it("ignores a peer header unless this process's web server stamps it", () => {
    const forged = headers({ [PEER_HEADER]: "127.0.0.1" });
    expect(connectionOf(forged, {}).address).toBeNull();
    markPeerStamping();
    expect(connectionOf(forged, {}).address).toBe("127.0.0.1");
  });
});

describe("the anonymous local admin", () => {
  const direct = (address: string | null) => ({
    address,
    viaTrustedProxy: false,
    forwardedByUntrustedPeer: false,
  });

  it("is a connection from this machine to a studio whose HOST is loopback", () => {
    expect(isAnonymousLocalAdmin(direct("127.0.0.1"), {})).toBe(true);
    expect(isAnonymousLocalAdmin(direct("::1"), { HOST: "localhost" })).toBe(true);
  });

  it("is nobody from another machine, from an unknown peer, or behind a proxy", () => {
    expect(isAnonymousLocalAdmin(direct("192.0.2.50"), {})).toBe(false);
    expect(isAnonymousLocalAdmin(direct(null), {})).toBe(false);
    expect(isAnonymousLocalAdmin({ ...direct("127.0.0.1"), forwardedByUntrustedPeer: true }, {})).toBe(false);
    expect(isAnonymousLocalAdmin(direct("127.0.0.1"), { ENVSTUDIO_REQUIRE_LOGIN: "1" })).toBe(false);
    expect(isAnonymousLocalAdmin(direct("127.0.0.1"), { HOST: "0.0.0.0" })).toBe(false);
  });

  it("never listens off loopback: a login-less studio refuses to serve a non-loopback bind", () => {
    expect(refuseLoginlessBind("127.0.0.1", {})).toBeNull();
    expect(refuseLoginlessBind("::1", { HOST: "localhost" })).toBeNull();
    expect(refuseLoginlessBind("192.0.2.2", { HOST: "localhost" })).toMatch(
      /bound to 192\.0\.2\.2, which is not a loopback address, but login is not required/,
    );
    expect(refuseLoginlessBind("0.0.0.0", {})).toMatch(/not a loopback address/);
    expect(refuseLoginlessBind("0.0.0.0", { HOST: "0.0.0.0" })).toBeNull();
    expect(refuseLoginlessBind("192.0.2.2", { ENVSTUDIO_REQUIRE_LOGIN: "1" })).toBeNull();
  });
});
