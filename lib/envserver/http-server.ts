/**
 * The RL environment server: OpenEnv-compatible HTTP routes (http-routes.ts), a WebSocket
 * (`/ws`) per session (ws-handler.ts) and MCP at `/mcp` (mcp-http.ts). Access follows auth.ts; /health (liveness) and /ready
 * (readiness: 503 while draining, lifecycle.ts) are always open.
 * A client that misbehaves at the socket or frame level loses its own connection, nothing more.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { type AccessPolicy, refusal } from "./auth";
import type { Catalog } from "./catalog";
import { HttpError, createRoutes } from "./http-routes";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import type { Sessions } from "./sessions";
import { createMcpEndpoint } from "./mcp-http";
import { attachWebSocket } from "./ws-handler";

/** Largest WebSocket message; a bigger frame closes that connection with 1009. */
export const MAX_WS_PAYLOAD = 1 << 20;

function send(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const STATUS_TEXT: Record<number, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  503: "Service Unavailable",
};
const UPGRADE_CODES: Record<number, string> = { 401: "UNAUTHENTICATED", 404: "NOT_FOUND", 503: "DRAINING" };

function refuseUpgrade(socket: Duplex, status: number, message: string) {
  const body = JSON.stringify({
    error: { code: UPGRADE_CODES[status] ?? "FORBIDDEN", message },
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createEnvServer(
  catalog: Catalog,
  sessions: Sessions,
  policy: AccessPolicy,
  lifecycle: Lifecycle,
): { server: Server; closeSockets: () => void; closeMcp: () => Promise<unknown> } {
  const table = createRoutes(catalog, sessions, lifecycle);
  const mcp = createMcpEndpoint(sessions, lifecycle);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = table[`${req.method} ${url.pathname}`];
    // Liveness and readiness answer anyone: an orchestrator's probe carries no token.
    if (route && (url.pathname === "/health" || url.pathname === "/ready"))
      return void route(req, url).then(([status, body]) => send(res, status, body));
    const refused = refusal(req, policy);
    if (refused)
      return send(res, refused.status, {
        error: { code: refused.status === 401 ? "UNAUTHENTICATED" : "FORBIDDEN", message: refused.message },
      });
    if (url.pathname === "/mcp") return void mcp.handle(req, res, url);
    if (!route)
      return send(res, 404, {
        error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` },
      });
    void lifecycle
      .track(() => route(req, url))
      .then(
        ([status, body]) => send(res, status, body),
        (error: unknown) =>
          send(res, error instanceof HttpError ? error.status : 400, {
            error: { code: "INVALID", message: error instanceof Error ? error.message : String(error) },
          }),
      );
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_PAYLOAD });
  // Without these listeners an 'error' event (a reset socket, a malformed frame) would be thrown
  // and take the whole process, and every session, down.
  wss.on("error", () => undefined);
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const target = new URL(req.url ?? "/", "http://localhost");
    const path = target.pathname;
    const refused = refusal(req, policy);
    if (refused) return refuseUpgrade(socket, refused.status, refused.message);
    if (path !== "/ws") return refuseUpgrade(socket, 404, `no WebSocket at ${path} (use /ws)`);
    if (lifecycle.draining()) return refuseUpgrade(socket, 503, DRAINING_MESSAGE);
    // `/ws?session_id=`: the socket joins a session created over HTTP (mcp.ts), if its id names one.
    const attachTo = target.searchParams.get("session_id") ?? undefined;
    if (attachTo !== undefined && !sessions.owns(attachTo, attachTo))
      return refuseUpgrade(
        socket,
        404,
        `no session ${attachTo} to attach to (create one with openenv/session/create on POST /mcp)`,
      );
    wss.handleUpgrade(req, socket, head, (ws) => attachWebSocket(ws, sessions, lifecycle, attachTo));
  });
  // Upgraded sockets are not HTTP connections: server.close() would wait for them forever.
  const closeSockets = () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
  return { server, closeSockets, closeMcp: mcp.closeAll };
}
