/**
 * The serve bench's HTTP client (bench/http-client.ts) reads every framing a server under test
 * may send, and survives a kept-alive socket the server closed while it sat idle. The servers
 * here are raw TCP, so each test controls the exact bytes on the wire.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeIdleConnections, httpRequest } from "../bench/http-client";

const servers: net.Server[] = [];
afterEach(async () => {
  closeIdleConnections();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server that answers each request (read up to its blank line and body) with `reply(n)`. */
async function rawServer(
  reply: (n: number, request: string) => string | Buffer[],
  onSocket?: (s: net.Socket) => void,
) {
  let n = 0;
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    onSocket?.(socket);
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        const answer = reply(n++, request);
        if (typeof answer === "string") socket.write(answer, "latin1");
        else answer.forEach((part, i) => setTimeout(() => socket.write(part), i * 5));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?x=1`);
  return { url, connections: () => connections };
}

describe("bench HTTP client", () => {
  it("sends method, path, headers and a body whose length is in bytes", async () => {
    let seen = "";
    const { url } = await rawServer((_n, request) => {
      seen = request;
      return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    });
    const reply = await httpRequest(url, "POST", { "content-type": "application/json" }, '{"é":1}');
    expect(reply).toEqual({ status: 200, headers: { "content-length": "2" }, text: "ok" });
    expect(seen.startsWith(`POST /mcp?x=1 HTTP/1.1\r\nHost: ${url.host}\r\n`)).toBe(true);
    expect(seen).toContain("content-type: application/json\r\nContent-Length: 8\r\n\r\n");
    expect(Buffer.from(seen, "latin1").toString("utf8").endsWith('{"é":1}')).toBe(true);
  });

  it("reads a Content-Length body split across packets, and a chunked one with trailers", async () => {
    const { url, connections } = await rawServer((n) =>
      n === 0
        ? [
            Buffer.from("HTTP/1.1 200 OK\r\nMcp-Session-Id: s1\r\nContent-Le"),
            Buffer.from("ngth: 11\r\n\r\nhello"),
            Buffer.from(" world"),
          ]
        : [
            Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"),
            Buffer.from("lo\r\n7;ext=1\r\n wörld\r\n0\r\nX-Trailer: y\r\n"),
            Buffer.from("\r\n"),
          ],
    );
    const first = await httpRequest(url, "GET", {});
    expect(first).toMatchObject({ status: 200, text: "hello world", headers: { "mcp-session-id": "s1" } });
    expect((await httpRequest(url, "GET", {})).text).toBe("hello wörld");
    // Both answers came on one kept-alive connection.
    expect(connections()).toBe(1);
  });

  it("reads no body after 204 and an empty one after Content-Length: 0, and keeps the connection", async () => {
    const { url, connections } = await rawServer((n) =>
      n === 0 ? "HTTP/1.1 204 No Content\r\n\r\n" : "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
    );
    expect(await httpRequest(url, "DELETE", {})).toMatchObject({ status: 204, text: "" });
    expect(await httpRequest(url, "POST", {}, "{}")).toMatchObject({ status: 202, text: "" });
    expect(connections()).toBe(1);
  });

  it("reads an unframed body up to the close, then opens a new connection", async () => {
    const { url, connections } = await rawServer(
      (n) => `HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbody ${n}`,
      (s) => s.on("data", () => setTimeout(() => s.end(), 10)),
    );
    expect((await httpRequest(url, "GET", {})).text).toBe("body 0");
    expect((await httpRequest(url, "GET", {})).text).toBe("body 1");
    expect(connections()).toBe(2);
  });

  it("retries once on a new connection when the server closed an idle kept-alive one", async () => {
    const sockets: net.Socket[] = [];
    const { url, connections } = await rawServer(
      (n) => `HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n${n}`,
      (s) => sockets.push(s),
    );
    expect((await httpRequest(url, "GET", {})).text).toBe("0");
    // The server drops the idle socket without the client having seen the close yet.
    sockets[0]!.destroy();
    expect((await httpRequest(url, "GET", {})).text).toBe("1");
    expect(connections()).toBe(2);
  });

  it("rejects a reply that is not HTTP and a connection closed before any answer", async () => {
    const garbage = await rawServer(() => "SSH-2.0-OpenSSH\r\n\r\n");
    await expect(httpRequest(garbage.url, "GET", {})).rejects.toThrow(/not an HTTP\/1\.1 response/);
    const silent = await rawServer(
      () => [],
      (s) => s.on("data", () => s.destroy()),
    );
    await expect(httpRequest(silent.url, "GET", {})).rejects.toThrow(/closed the connection|ECONNRESET/);
  });
});
