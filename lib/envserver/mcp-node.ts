/**
 * The SDK's web-standard Streamable HTTP transport, answered from Node's own request and
 * response. The SDK's Node transport bridges every request through a general Node↔fetch adapter
 * that streams the body both ways; here the body is already read, size-checked and parsed
 * (mcp-http.ts), and replies are JSON only (`enableJsonResponse`: no SSE stream is ever
 * offered), so a request needs only its method and headers and a reply is one string. The SDK
 * still does everything MCP asks of the transport: Accept, Content-Type, session and
 * `MCP-Protocol-Version` checks, JSON-RPC validation, 202 for notifications.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { endReply } from "./http-reply";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/** Any host: the URL only carries the path; Host and Origin are checked before (auth.ts). */
const BASE = "http://localhost";

/**
 * The request as the transport reads it: method, URL and headers (`get` and `entries`, all that
 * SDK 1.32's web-standard transport calls), over Node's parsed headers instead of a copy into a
 * fetch `Request` and `Headers`. It reads nothing else when the body is given (a POST's always is;
 * GET is answered before); the MCP tests take every path it has.
 */
class NodeHeaders {
  constructor(private readonly raw: IncomingMessage["headers"]) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
  entries(): IterableIterator<[string, string]> {
    const pairs: [string, string][] = [];
    for (const name of Object.keys(this.raw)) {
      const value = this.get(name);
      if (value !== null) pairs.push([name, value]);
    }
    return pairs[Symbol.iterator]();
  }
}

function requestOf(req: IncomingMessage): Request {
  return {
    method: req.method ?? "GET",
    url: BASE + (req.url ?? "/"),
    headers: new NodeHeaders(req.headers),
  } as unknown as Request;
}

/** One HTTP request through `transport`; `parsedBody` is a POST's JSON (never read again). */
export async function answerOverNode(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
): Promise<void> {
  const response = await transport.handleRequest(requestOf(req), { parsedBody });
  const body = response.body ? await response.text() : undefined;
  endReply(res, response.status, Object.fromEntries(response.headers), body);
}
