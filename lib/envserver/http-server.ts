/**
 * The RL environment server: OpenEnv-compatible HTTP routes and a WebSocket (`/ws`) per session.
 * Every route but /health needs the token (`Authorization: Bearer …`, or `?token=` for clients
 * that cannot set headers on a WebSocket). HTTP /step and /state name their session with
 * `episode_id` (OpenEnv's HTTP routes are stateless; the WebSocket is the stateful path).
 */
import { timingSafeEqual } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { WebSocketServer } from "ws";
import type { Catalog } from "./catalog";
import { ResetBodySchema, StepBodySchema } from "./envserver.schema";
import type { ServeError, Sessions } from "./sessions";
import { attachWebSocket } from "./ws-handler";

const MAX_BODY = 1 << 20;
const STATUS: Record<ServeError["code"], number> = { NOT_FOUND: 404, CAPACITY: 503, ENDED: 409, SANDBOX: 502, INVALID: 400 };

export function isAuthorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization?.replace(/^Bearer\s+/i, "");
  const given = header ?? new URL(req.url ?? "/", "http://x").searchParams.get("token") ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

type Route = (req: IncomingMessage, url: URL) => Promise<[number, unknown]>;

function routes(catalog: Catalog, sessions: Sessions): Record<string, Route> {
  const fail = (e: ServeError): [number, unknown] => [STATUS[e.code], { error: e }];
  return {
    "GET /metadata": () => Promise.resolve([200, { name: `envstudio/${catalog.name}`, description: `EnvStudio dataset ${catalog.name}`, scenarios: catalog.scenarios.length, version: "1" }]),
    "GET /schema": () => Promise.resolve([200, { action: { tool_name: "string", arguments: "object" }, observation: { content: "any", tools: "array", metadata: "object" }, state: { episode_id: "string", step_count: "integer" } }]),
    "POST /reset": async (req) => {
      const body = ResetBodySchema.safeParse(await readJson(req));
      if (!body.success) return [400, { error: { code: "INVALID", message: body.error.issues[0]?.message } }];
      const r = await sessions.reset(body.data);
      return r.ok ? [200, r.value.reply] : fail(r.error);
    },
    "POST /step": async (req) => {
      const body = StepBodySchema.safeParse(await readJson(req));
      if (!body.success) return [400, { error: { code: "INVALID", message: `${body.error.issues[0]?.path.join(".")}: ${body.error.issues[0]?.message}` } }];
      if (!body.data.episode_id) return [400, { error: { code: "INVALID", message: "episode_id is required over HTTP (from the reset observation's metadata); or use /ws" } }];
      const r = await sessions.step(body.data.episode_id, body.data.action);
      return r.ok ? [200, r.value] : fail(r.error);
    },
    "GET /state": async (_req, url) => {
      const r = await sessions.state(url.searchParams.get("episode_id") ?? "");
      return r.ok ? [200, r.value] : fail(r.error);
    },
    "POST /close": async (req) => {
      const body = StepBodySchema.pick({ episode_id: true }).safeParse(await readJson(req));
      if (!body.success || !body.data.episode_id) return [400, { error: { code: "INVALID", message: "episode_id is required" } }];
      await sessions.close(body.data.episode_id);
      return [200, { closed: true }];
    },
  };
}

export function createEnvServer(catalog: Catalog, sessions: Sessions, token: string): { server: Server; closeSockets: () => void } {
  const table = routes(catalog, sessions);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { status: "healthy", sessions: sessions.size() });
    if (!isAuthorized(req, token)) return send(res, 401, { error: { code: "UNAUTHENTICATED", message: "missing or wrong token" } });
    const route = table[`${req.method} ${url.pathname}`];
    if (!route) return send(res, 404, { error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` } });
    route(req, url).then(
      ([status, body]) => send(res, status, body),
      (error: unknown) => send(res, 400, { error: { code: "INVALID", message: error instanceof Error ? error.message : String(error) } }),
    );
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY });
  server.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/ws" || !isAuthorized(req, token)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attachWebSocket(ws, sessions));
  });
  // Upgraded sockets are not HTTP connections: server.close() would wait for them forever.
  const closeSockets = () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
  return { server, closeSockets };
}
