/**
 * BENCH ONLY. The HTTP side of the serve bench's load generator: requests on node:http with one
 * kept-alive agent. The load generator shares the machine's cores with the server under test, so
 * what a request costs the client counts against the server; Node's fetch (undici) spends several
 * times the server's own CPU per request on WHATWG streams and request/response objects
 * (`npm run bench -- mcp-calls`). This client costs about what the WebSocket lane's client costs
 * per message, so every lane measures its server, not its client.
 */
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

export type HttpReply = { status: number; headers: http.IncomingHttpHeaders; text: string };

export function httpRequest(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
