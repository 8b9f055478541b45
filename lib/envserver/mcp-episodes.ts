/**
 * An MCP episode at a URL of its own, for clients that hold no session: the 2026-07-28
 * protocol's per-request form (`server/discover`, the `_meta` envelope on every request, its
 * header checks) and 2025 clients that connect statelessly. The URL names the episode, so the
 * tool list never varies under one URL.
 * - `POST /mcp/episodes` `{scenario_id?, seed?}` or `{split, index}` (a Task API task) starts an
 *   episode (picked as a reset picks it when no scenario is named) and answers 201
 *   `{handle, url, scenario_id, task}`;
 * - `POST /mcp/episodes/<handle>` is MCP, answered by the official SDK 2.x's `createMcpHandler`
 *   (both generations, one fresh server instance per request, JSON responses);
 * - `DELETE /mcp/episodes/<handle>` ends the episode (204); an unknown or ended handle is 404;
 *   GET is 405 (no stream: the server never speaks first).
 * A handle is the episode's id: random (122 bits), the only credential a client holds, as an MCP
 * session id is; a session `initialize` started at /mcp has its id as handle too.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { endReply } from "./http-reply";
import { HttpError, MAX_BODY } from "./http-routes";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { RPC } from "./mcp";
import { type EpisodeHandle, createEpisodeServerV2 } from "./mcp-episode-server";
import { type Refusal, type StartSchema, readBody, sendJson, sendRpcError } from "./mcp-wire";
import type { Sessions } from "./sessions";

const EPISODE_PATH = /^\/mcp\/episodes\/([0-9a-f-]{36})$/;

const CreateBodySchema = z
  .object({
    scenario_id: z.string().min(1).max(255).optional(),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    split: z.enum(["train", "test"]).optional(),
    index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict()
  .refine((b) => (b.split === undefined) === (b.index === undefined))
  .refine((b) => b.split === undefined || b.scenario_id === undefined);

export type EpisodeUrlDeps = {
  sessions: Sessions;
  lifecycle: Lifecycle;
  start: (
    choice: z.infer<typeof StartSchema>,
    onEvicted: (id: string) => void,
  ) => Promise<EpisodeHandle | Refusal>;
  episodeOf: (id: string) => Promise<EpisodeHandle | Refusal>;
  /** An episode held here (episodeOf has found or taken it over). */
  held: (id: string) => EpisodeHandle | undefined;
  endEpisode: (handle: EpisodeHandle) => Promise<void>;
};

export function createEpisodeUrls({
  sessions,
  lifecycle,
  start,
  episodeOf,
  held,
  endEpisode,
}: EpisodeUrlDeps) {
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      // The request's episode was found (or taken over) before the SDK was handed the request;
      // the SDK may hand the factory a copy of it, so the episode is found again by its URL.
      const id = requestInfo && EPISODE_PATH.exec(new URL(requestInfo.url).pathname)?.[1];
      const episode = id ? held(id) : undefined;
      if (!episode) throw new Error("the episode ended while its request was read");
      return createEpisodeServerV2(sessions, episode);
    },
    { maxRequestBodySize: MAX_BODY },
  );

  async function create(req: IncomingMessage, res: ServerResponse) {
    if (lifecycle.draining())
      return sendJson(res, 503, { error: { code: "DRAINING", message: DRAINING_MESSAGE } });
    const text = await readBody(req);
    let raw: unknown = {};
    try {
      if (text.trim()) raw = JSON.parse(text);
    } catch {
      return sendJson(res, 400, { error: { code: "INVALID", message: "body is not JSON" } });
    }
    const body = CreateBodySchema.safeParse(raw);
    if (!body.success)
      return sendJson(res, 400, {
        error: {
          code: "INVALID",
          message:
            "body must be {scenario_id?: string, seed?: integer ≥ 0} or {split: train|test, index: integer ≥ 0} (the Task API's)",
        },
      });
    const { scenario_id: scenario, seed, split, index } = body.data;
    const started = await start({ scenario, seed, split, index }, () => undefined);
    if ("error" in started)
      return sendJson(res, started.status, { error: { code: "NOT_STARTED", message: started.error } });
    sendJson(res, 201, {
      handle: started.id,
      url: `/mcp/episodes/${started.id}`,
      scenario_id: started.scenario.id,
      task: started.scenario.task,
    });
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL) {
    const body = await readBody(req);
    const request = new Request(url, { method: "POST", headers: webHeaders(req), body });
    const response = await handler.fetch(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    endReply(res, response.status, headers, Buffer.from(await response.arrayBuffer()));
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === "/mcp/episodes") {
      if (req.method === "POST") return create(req, res);
      return sendJson(
        res,
        405,
        { error: { code: "METHOD", message: "POST starts an episode" } },
        { allow: "POST" },
      );
    }
    const match = EPISODE_PATH.exec(url.pathname);
    if (!match?.[1])
      return sendJson(res, 404, {
        error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` },
      });
    if (req.method !== "POST" && req.method !== "DELETE")
      return sendRpcError(res, 405, RPC.SERVER_ERROR, "Method not allowed: this server sends no SSE stream", {
        allow: "POST, DELETE",
      });
    const episode = await episodeOf(match[1]);
    if ("error" in episode) {
      // The body is read so that the client hears the answer rather than a reset connection.
      if (req.method === "POST") await readBody(req).catch(() => undefined);
      return sendRpcError(res, episode.status, episode.code, episode.error);
    }
    if (req.method === "DELETE") {
      await endEpisode(episode);
      return void res.writeHead(204).end();
    }
    try {
      await serve(req, res, url);
    } catch (error) {
      if (error instanceof HttpError) return sendRpcError(res, error.status, RPC.SERVER_ERROR, error.message);
      throw error;
    }
  }

  return { handle, close: () => handler.close() };
}

/** The request's headers for a web Request (repeated headers joined, as HTTP allows). */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}
