/**
 * Requests a browser could not send: any Host header, forged forwarding headers, raw bytes, from
 * this machine's network address instead of loopback. Node's http client, so every header and the
 * exact `Set-Cookie` lines reach the spec.
 */
import http from "node:http";
import os from "node:os";
import { serverAction } from "./actions";

export type RawReply = { status: number; text: string; headers: http.IncomingHttpHeaders };

export function rawRequest(
  base: string,
  opts: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port,
        path: opts.path,
        method: opts.method,
        headers: opts.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Calls a server action the way the studio's pages do (arguments as a JSON array). */
export function callAction(
  base: string,
  name: string,
  args: unknown[],
  headers: Record<string, string> = {},
): Promise<RawReply> {
  const action = serverAction(name);
  return rawRequest(base, {
    method: "POST",
    // Signing in posts from the sign-in page, the one page open to anyone.
    path: name === "loginAction" ? "/login" : action.page,
    headers: {
      "next-action": action.id,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      ...headers,
    },
    body: JSON.stringify(args),
  });
}

/** The session cookie a reply sets, as sent (with its attributes), or undefined. */
export const sessionCookie = (reply: RawReply) =>
  (reply.headers["set-cookie"] ?? []).find((c) => c.startsWith("envstudio_session="));

/**
 * An IPv4 address of this machine that is not loopback: connecting to it makes the studio see a
 * peer from the network. The browser tier needs one (CI machines and containers have one).
 */
export function networkAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal);
  if (!found) throw new Error("this machine has no non-loopback IPv4 address to connect from");
  return found.address;
}
