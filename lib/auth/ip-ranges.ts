/**
 * IP addresses and CIDR ranges (pure): the list in ENVSTUDIO_TRUSTED_PROXIES, matched against the
 * addresses of connections and forwarded hops. Node's net.BlockList does the matching for IPv4 and
 * IPv6; addresses are normalised first, so an IPv4 client seen on a dual-stack socket
 * (`::ffff:192.0.2.7`) matches an IPv4 entry.
 */
import net from "node:net";

export type IpRanges = { readonly size: number; has: (address: string) => boolean };

const family = (ip: string) => (net.isIPv4(ip) ? "ipv4" : "ipv6");

/** An address as written in a header or by the socket, normalised; null when it is not an IP address. */
export function normalizeIp(raw: string): string | null {
  let text = raw.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped?.[1]) text = mapped[1];
  return net.isIP(text) ? text.toLowerCase() : null;
}

/** 127.0.0.0/8 and ::1: a connection from this machine. */
export function isLoopbackIp(raw: string | null): boolean {
  const ip = raw === null ? null : normalizeIp(raw);
  return ip !== null && (ip === "::1" || (net.isIPv4(ip) && ip.startsWith("127.")));
}

/** `10.0.0.0/8, 192.0.2.1, ::1` (comma-separated addresses and CIDR ranges); blank is the empty list. */
export function parseIpRanges(text: string): { ok: true; value: IpRanges } | { ok: false; message: string } {
  const list = new net.BlockList();
  const entries = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const ip = normalizeIp(address);
    const bits = ip && net.isIPv4(ip) ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!ip || extra !== undefined || !(length >= 0 && length <= bits))
      return {
        ok: false,
        message: `"${entry}" is not an IP address or a CIDR range (like 10.0.0.0/8 or 192.0.2.1)`,
      };
    list.addSubnet(ip, length, family(ip));
  }
  return {
    ok: true,
    value: {
      size: entries.length,
      has: (address) => {
        const ip = normalizeIp(address);
        return ip !== null && list.check(ip, family(ip));
      },
    },
  };
}
