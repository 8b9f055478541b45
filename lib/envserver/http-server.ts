/**
 * The RL environment server: OpenEnv-compatible HTTP routes (http-routes.ts), a WebSocket
 * (`/ws`) per session (ws-handler.ts) and MCP at `/mcp` (mcp-http.ts). Access follows auth.ts; /health (liveness) and /ready
 * (readiness: 503 while draining, lifecycle.ts) are always open.
 * A client that misbehaves at the socket or frame level loses its own connection, nothing more.
 */
import { randomUUID } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { type AccessPolicy, refusal } from "./auth";
import type { Catalog } from "./catalog";
import { endReply } from "./http-reply";
import { EPISODE_HEADER, HttpError, STATUS, answerTaskRequest, createRoutes } from "./http-routes";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import type { Sessions } from "./sessions";
import { createMcpEndpoint } from "./mcp-http";
import { matchTaskRoute } from "./task-api";
import { type WsBinding, attachWebSocket } from "./ws-handler";

/** Largest WebSocket message; a bigger frame closes that connection with 1009. */
export const MAX_WS_PAYLOAD = 1 << 20;

/** Episode ids a client chose may hold any character; only plain ones go into a header. */
const headerSafe = (id: string | undefined): id is string => !!id && /^[\x21-\x7e]{1,255}$/.test(id);

function send(res: ServerResponse, status: number, body: unknown, episode?: string) {
  endReply(
    res,
    status,
    { "content-type": "application/json", ...(headerSafe(episode) ? { [EPISODE_HEADER]: episode } : {}) },
    JSON.stringify(body),
  );
}

/** `/episodes/<id>/step` (POST), `/episodes/<id>/state` (GET), `/episodes/<id>/close` (POST): the
 * episode in the path, where a balancer can hash on it; the same routes as /step, /state, /close. */
export function pathRoute(
  method: string | undefined,
  pathname: string,
): { key: string; episode: string } | null {
  const m = /^\/episodes\/([^/]+)\/(step|state|close)$/.exec(pathname);
  if (!m?.[1] || !m[2]) return null;
  let episode: string;
  try {
    episode = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  return { key: `${method} /${m[2]}`, episode };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  410: "Gone",
  502: "Bad Gateway",
  503: "Service Unavailable",
};
const UPGRADE_CODES: Record<number, string> = { 401: "UNAUTHENTICATED", 404: "NOT_FOUND", 503: "DRAINING" };

function refuseUpgrade(socket: Duplex, status: number, message: string, code?: string) {
  const body = JSON.stringify({
    error: { code: code ?? UPGRADE_CODES[status] ?? "FORBIDDEN", message },
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
  const table = createRoutes(catalog, sessions, lifecycle, () => wss.clients.size);
  const mcp = createMcpEndpoint(sessions, lifecycle);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const byPath = pathRoute(req.method, url.pathname);
    const route = table[byPath?.key ?? `${req.method} ${url.pathname}`];
    // Liveness and readiness answer anyone: an orchestrator's probe carries no token.
    if (route && (url.pathname === "/health" || url.pathname === "/ready"))
      return void route(req, url).then(([status, body]) => send(res, status, body));
    const refused = refusal(req, policy);
    if (refused)
      return send(res, refused.status, {
        error: { code: refused.status === 401 ? "UNAUTHENTICATED" : "FORBIDDEN", message: refused.message },
      });
    if (url.pathname === "/mcp" || url.pathname.startsWith("/mcp/episodes"))
      return void mcp.handle(req, res, url);
    const task = route ? null : matchTaskRoute(req.method, url.pathname);
    if (task)
      return void answerTaskRequest(catalog, req, task).then(
        ([status, body]) => send(res, status, body),
        (error: unknown) =>
          send(res, error instanceof HttpError ? error.status : 500, {
            detail: error instanceof Error ? error.message : String(error),
          }),
      );
    if (!route)
      return send(res, 404, {
        error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` },
      });
    void lifecycle
      .track(() => route(req, url, byPath?.episode))
      .then(
        ([status, body, episode]) => send(res, status, body, episode),
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
  // The upgrade's answer names the connection's episode (EPISODE_HEADER), as HTTP answers do.
  const episodeOfUpgrade = new WeakMap<IncomingMessage, string>();
  wss.on("headers", (headers: string[], req: IncomingMessage) => {
    const id = episodeOfUpgrade.get(req);
    if (headerSafe(id)) headers.push(`X-Envstudio-Episode: ${id}`);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const target = new URL(req.url ?? "/", "http://localhost");
    const path = target.pathname;
    const refused = refusal(req, policy);
    if (refused) return refuseUpgrade(socket, refused.status, refused.message);
    if (path !== "/ws") return refuseUpgrade(socket, 404, `no WebSocket at ${path} (use /ws)`);
    if (lifecycle.draining()) return refuseUpgrade(socket, 503, DRAINING_MESSAGE);
    void lifecycle
      .track(() => bindingOf(req, target))
      .then(
        (binding) => {
          if ("refuse" in binding) return refuseUpgrade(socket, ...binding.refuse);
          episodeOfUpgrade.set(req, binding.id);
          wss.handleUpgrade(req, socket, head, (ws) => attachWebSocket(ws, sessions, lifecycle, binding));
        },
        // Unhandled, a failed takeover would be an unhandled rejection and stop the process.
        (e: unknown) => refuseUpgrade(socket, 502, e instanceof Error ? e.message : String(e), "SANDBOX"),
      );
  });

  /** What the new connection acts on (ws-handler.ts WsBinding), or why it is refused. */
  async function bindingOf(
    req: IncomingMessage,
    target: URL,
  ): Promise<WsBinding | { refuse: [number, string, string?] }> {
    const attachTo = target.searchParams.get("session_id");
    const resume = target.searchParams.get("episode_id");
    if (attachTo !== null && resume !== null)
      return { refuse: [400, "name session_id or episode_id, not both", "INVALID"] };
    // `/ws?session_id=`: the socket joins a session created over HTTP (mcp.ts), if its id names one.
    if (attachTo !== null)
      return sessions.owns(attachTo, attachTo)
        ? { kind: "attach", id: attachTo }
        : {
            refuse: [
              404,
              `no session ${attachTo} to attach to (create one with openenv/session/create on POST /mcp)`,
            ],
          };
    if (resume === null) return { kind: "new", id: `ws-${randomUUID()}` };
    // `/ws?episode_id=`: the episode an earlier connection started goes on here. The key comes in
    // a header, not the URL, which proxies and servers write to their logs.
    const header = req.headers["x-session-key"];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key)
      return {
        refuse: [
          400,
          `resuming episode ${resume} needs its session_key in the X-Session-Key header`,
          "INVALID",
        ],
      };
    const r = await sessions.resume(resume, key);
    return r.ok
      ? { kind: "resume", id: resume, key }
      : { refuse: [STATUS[r.error.code], r.error.message, r.error.code] };
  }
  // Upgraded sockets are not HTTP connections: server.close() would wait for them forever.
  const closeSockets = () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
  return { server, closeSockets, closeMcp: mcp.closeAll };
}
