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
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { SCHEMAS, metadataOf, openApiDocument } from "./openapi";
import type { ServeError, Sessions } from "./sessions";
import { formatZodIssues, type IssueLike } from "../core/zod-issues";

export const MAX_BODY = 1 << 20;
const STATUS: Record<ServeError["code"], number> = {
  NOT_FOUND: 404,
  CAPACITY: 503,
  FORBIDDEN: 403,
  SANDBOX: 502,
  INVALID: 400,
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

export type Route = (req: IncomingMessage, url: URL) => Promise<[number, unknown]>;
const invalid = (message: string): [number, unknown] => [400, { error: { code: "INVALID", message } }];
const fail = (e: ServeError): [number, unknown] => [STATUS[e.code], { error: e }];
const issue = (e: { issues: IssueLike[] }) => formatZodIssues(e, { root: "body", max: 1 });
const sessionKeyOf = (req: IncomingMessage, given: string | undefined | null) =>
  given ?? (req.headers["x-session-key"] as string | undefined) ?? "";

export function createRoutes(
  catalog: Catalog,
  sessions: Sessions,
  lifecycle: Lifecycle,
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
          : [200, { status: "ready", sessions: sessions.live(), capacity: sessions.capacity }],
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
      ];
    },
    "POST /step": async (req) => {
      const body = StepBodySchema.safeParse(await readJson(req));
      if (!body.success) return invalid(issue(body.error));
      if (!body.data.episode_id) return [200, { observation: noEpisode, reward: null, done: true }];
      const r = await sessions.step(
        body.data.episode_id,
        body.data.action,
        sessionKeyOf(req, body.data.session_key),
      );
      return r.ok ? [200, r.value] : fail(r.error);
    },
    "GET /state": async (req, url) => {
      const id = url.searchParams.get("episode_id");
      if (!id) return [200, { episode_id: null, step_count: 0 }];
      const r = await sessions.state(id, sessionKeyOf(req, url.searchParams.get("session_key")));
      return r.ok ? [200, r.value] : fail(r.error);
    },
    "POST /close": async (req) => {
      const body = StepBodySchema.pick({ episode_id: true, session_key: true }).safeParse(
        await readJson(req),
      );
      if (!body.success || !body.data.episode_id) return invalid("episode_id is required");
      const r = await sessions.close(body.data.episode_id, sessionKeyOf(req, body.data.session_key));
      return r.ok ? [200, { closed: true }] : fail(r.error);
    },
  };
}
