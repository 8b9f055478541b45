import type { ServerResponse } from "node:http";

/**
 * Writes a whole reply with its length. Without `Content-Length`, a reply after `writeHead` goes
 * out chunked: several buffers gathered into a writev and a chunked body for the client to
 * decode. With it, Node sends the head and a string body in one write: on the MCP and OpenEnv
 * HTTP paths, where every tool call is a request, that is a measurable share of the server's CPU
 * (docs/benchmarks.md, serve).
 */
export function endReply(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body?: string | Buffer,
): void {
  if (res.headersSent || res.destroyed) return;
  // 204 and 304 carry no body and must not announce one (RFC 9110, 8.6).
  if (status === 204 || status === 304) return void res.writeHead(status, headers).end();
  const length = body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.length;
  res.writeHead(status, { ...headers, "content-length": length });
  res.end(body);
}
