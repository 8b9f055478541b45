/**
 * HTTP routes in upstream OpenEnv's shapes (openenv/core/env_server/http_server.py + types.py):
 * POST /reset → `ResetResponse` {observation, reward, done}; POST /step {action, …} →
 * `StepResponse`; GET /state → `State`. Upstream's HTTP routes are stateless (a fresh environment
 * per request); ours keep the episode a reset started, named in later requests by `episode_id`
 * and `session_key` from the reset observation's metadata. A /step or /state naming no episode
 * answers as upstream's fresh environment does (done=True / an empty State), never an error.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Catalog } from "./catalog";
import { ResetBodySchema, StepBodySchema } from "./envserver.schema";
import { type TaskApiAnswer, answerTaskApi, type matchTaskRoute } from "./task-api";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { SCHEMAS, metadataOf, openApiDocument } from "./openapi";
import type { ServeError, Sessions } from "./sessions";
import { formatZodIssues, type IssueLike } from "../core/zod-issues";

/** The routing handle: every answer about an episode carries its id here, and requests may send
 * it back, so a load balancer can keep an episode on one replica without reading bodies
 * (docs/deployment.md). Lower case: Node's spelling of incoming header names. */
export const EPISODE_HEADER = "x-envstudio-episode";

export const MAX_BODY = 1 << 20;
export const STATUS: Record<ServeError["code"], number> = {
  NOT_FOUND: 404,
  CAPACITY: 503,
  FORBIDDEN: 403,
  SANDBOX: 502,
  INVALID: 400,
  GONE: 410,
};

/** A request the client got wrong: answered with its status, never a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readText(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, `body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, "body is not JSON");
  }
}

/** Status, body, and the episode the answer concerns (sent as EPISODE_HEADER). `episode`: the id
 * from the path form `/episodes/<id>/<verb>`. */
export type Route = (req: IncomingMessage, url: URL, episode?: string) => Promise<[number, unknown, string?]>;
type Answer = [number, unknown, string?];
const invalid = (message: string): Answer => [400, { error: { code: "INVALID", message } }];
const fail = (e: ServeError, id?: string): Answer => [STATUS[e.code], { error: e }, id];
const issue = (e: { issues: IssueLike[] }) => formatZodIssues(e, { root: "body", max: 1 });
const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const sessionKeyOf = (req: IncomingMessage, given: string | undefined | null) =>
  given ?? header(req, "x-session-key") ?? "";

/**
 * The episode a request names: in the path, the body or query (`episode_id`), or the routing
 * header a client echoes (EPISODE_HEADER). Places that disagree are a client bug: 400, rather than
 * acting on one episode while the balancer routed by another.
 */
function episodeOf(req: IncomingMessage, given: string | undefined | null, path?: string) {
  const named = [path, given ?? undefined, header(req, EPISODE_HEADER)].filter((v): v is string => !!v);
  if (new Set(named).size > 1)
    return { error: invalid(`the request names different episodes (${[...new Set(named)].join(", ")})`) };
  return { id: named[0] };
}

export function createRoutes(
  catalog: Catalog,
  sessions: Sessions,
  lifecycle: Lifecycle,
  /** Open WebSocket connections (http-server.ts). */
  websockets: () => number = () => 0,
): Record<string, Route> {
  const noEpisode = {
    content: {
      success: false,
      error:
        "no episode: pass episode_id and session_key from the reset observation's metadata, or use the WebSocket /ws",
    },
  };
  return {
    "GET /health": () => Promise.resolve([200, { status: "healthy" }]),
    "GET /ready": () =>
      Promise.resolve(
        lifecycle.draining()
          ? [503, { status: "draining", in_flight: lifecycle.inFlight() }]
          : [
              200,
              {
                status: "ready",
                sessions: sessions.live(),
                capacity: sessions.capacity,
                websockets: websockets(),
              },
            ],
      ),
    "GET /metadata": () => Promise.resolve([200, metadataOf(catalog)]),
    "GET /schema": () => Promise.resolve([200, SCHEMAS]),
    "GET /openapi.json": () => Promise.resolve([200, openApiDocument(catalog)]),
    "POST /reset": async (req) => {
      // A reset starts an episode: a draining replica takes none (the client goes to another).
      if (lifecycle.draining()) return [503, { error: { code: "DRAINING", message: DRAINING_MESSAGE } }];
      const body = ResetBodySchema.safeParse(await readJson(req));
      if (!body.success) return invalid(issue(body.error));
      const key = body.data.session_key ?? randomBytes(18).toString("base64url");
      const r = await sessions.reset(body.data, { key });
      if (!r.ok) return fail(r.error);
      const { observation, reward, done } = r.value.reply;
      return [
        200,
        {
          observation: { ...observation, metadata: { ...observation.metadata, session_key: key } },
          reward,
          done,
        },
        r.value.id,
      ];
    },
    "POST /step": async (req, _url, path) => {
      const body = StepBodySchema.safeParse(await readJson(req));
      if (!body.success) return invalid(issue(body.error));
      const named = episodeOf(req, body.data.episode_id, path);
      if (named.error) return named.error;
      if (!named.id) return [200, { observation: noEpisode, reward: null, done: true }];
      const r = await sessions.step(named.id, body.data.action, sessionKeyOf(req, body.data.session_key));
      return r.ok ? [200, r.value, named.id] : fail(r.error, named.id);
    },
    "GET /state": async (req, url, path) => {
      const named = episodeOf(req, url.searchParams.get("episode_id"), path);
      if (named.error) return named.error;
      if (!named.id) return [200, { episode_id: null, step_count: 0 }];
      const r = await sessions.state(named.id, sessionKeyOf(req, url.searchParams.get("session_key")));
      return r.ok ? [200, r.value, named.id] : fail(r.error, named.id);
    },
    "POST /close": async (req, _url, path) => {
      const body = StepBodySchema.pick({ episode_id: true, session_key: true }).safeParse(
        await readJson(req),
      );
      if (!body.success) return invalid("episode_id is required");
      const named = episodeOf(req, body.data.episode_id, path);
      if (named.error) return named.error;
      if (!named.id) return invalid("episode_id is required");
      const r = await sessions.close(named.id, sessionKeyOf(req, body.data.session_key));
      return r.ok ? [200, { closed: true }, named.id] : fail(r.error, named.id);
    },
  };
}

/** A Task API request (task-api.ts): its JSON body read here, a body that is not JSON answered as
 * FastAPI answers it (422, `json_invalid`). */
export async function answerTaskRequest(
  catalog: Catalog,
  req: IncomingMessage,
  route: NonNullable<ReturnType<typeof matchTaskRoute>>,
): Promise<TaskApiAnswer> {
  if (req.method !== "POST") return answerTaskApi(catalog, route, undefined);
  const text = await readText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [
      422,
      { detail: [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {} }] },
    ];
  }
  return answerTaskApi(catalog, route, body);
}
