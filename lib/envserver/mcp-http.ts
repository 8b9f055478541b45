/**
 * MCP over Streamable HTTP, one episode per MCP session, in two forms:
 * - `/mcp` (specification 2025-11-25, basic/transports) on the official SDK 1.x's web-standard
 *   Streamable HTTP transport (answered over Node by mcp-node.ts): an `initialize` POST without
 *   `Mcp-Session-Id` starts an episode (the scenario from `?scenario=` or
 *   `params._meta["envstudio/scenario"]`, else picked as a reset picks it, by `seed` when given)
 *   and its id is the session's `Mcp-Session-Id`;
 *   later requests name it in that header; an unknown or expired one is 404 (the client starts
 *   over); DELETE ends the session and its episode; GET is 405 (no SSE stream: the server never
 *   speaks first); the SDK checks `MCP-Protocol-Version`, Accept and Content-Type. A POST naming
 *   no MCP session that is not `initialize` is OpenEnv's JSON-RPC (mcp.ts), as upstream's clients
 *   send it; so a 2026-07-28 client's `server/discover` probe here gets -32601 and the client
 *   falls back to `initialize`, as it does with any 2025 server.
 * - `/mcp/episodes/<handle>` (mcp-episodes.ts): the episode at a URL of its own, for clients
 *   that hold no session (2026-07-28's per-request form, or a stateless 2025 client), on SDK
 *   2.x. `POST /mcp/episodes` starts one; the handle is an episode started either way (an MCP
 *   session's id is its handle too).
 * The episode lives exactly as long as the session: ending one ends the other, whichever side
 * (client DELETE, idle reaping, server stop) ends it. With the journal (ENVSTUDIO_SERVE_JOURNAL=1)
 * a session outlives its replica: a request naming a session another replica started is served
 * here once the journal's episode is taken over (the session id is the episode's key, as the
 * session id is the client's only credential in MCP). Access checks (auth.ts) run before this.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { endReply } from "./http-reply";
import { HttpError } from "./http-routes";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { RPC, handleMcp, handleMcpText } from "./mcp";
import { type EpisodeHandle, createEpisodeServer } from "./mcp-episode-server";
import { createEpisodeUrls } from "./mcp-episodes";
import { answerOverNode } from "./mcp-node";
import {
  type Refusal,
  SESSION_NOT_FOUND,
  START_STATUS,
  StartSchema,
  readBody,
  sendJson,
  sendRpcError,
} from "./mcp-wire";
import type { Sessions } from "./sessions";

const MetaSchema = z
  .object({
    params: z
      .object({
        _meta: z
          .object({
            "envstudio/scenario": z.string().optional(),
            "envstudio/seed": z.number().optional(),
          })
          .passthrough()
          .optional(),
      })
      .passthrough(),
  })
  .passthrough();

export function createMcpEndpoint(sessions: Sessions, lifecycle: Lifecycle) {
  /** Every episode this replica serves over MCP: started by `initialize` or POST /mcp/episodes,
   * or taken over from another replica. */
  const episodes = new Map<string, EpisodeHandle>();
  /** The SDK transports of the sessions `initialize` started here. */
  const live = new Map<string, WebStandardStreamableHTTPServerTransport>();

  const notFound: Refusal = { error: "Session not found", status: 404, code: SESSION_NOT_FOUND };

  /**
   * Starts an episode whose id (unguessable) is both its MCP session id and its key, so that any
   * replica can take it over from the journal. `onEvicted` runs when idle reaping ends it.
   */
  async function startEpisode(
    choice: z.infer<typeof StartSchema>,
    onEvicted: (id: string) => void,
  ): Promise<EpisodeHandle | Refusal> {
    const id = randomUUID();
    const owner = {
      key: id,
      onEvicted: () => {
        episodes.delete(id);
        onEvicted(id);
      },
    };
    const reset = await sessions.reset(
      {
        scenario_id: choice.scenario,
        seed: choice.seed,
        split: choice.split,
        index: choice.index,
        diff: true,
        episode_id: id,
      },
      owner,
    );
    if (!reset.ok)
      return { error: reset.error.message, status: START_STATUS[reset.error.code], code: RPC.SERVER_ERROR };
    const handle = { id, key: id, scenario: reset.value.scenario };
    episodes.set(id, handle);
    return handle;
  }

  /**
   * The episode an id names: held here, or (with the journal) taken over, its episode rebuilt by
   * replaying its calls, unless it ended. Otherwise 404, after which an MCP client starts over.
   */
  async function episodeOf(id: string): Promise<EpisodeHandle | Refusal> {
    const held = episodes.get(id);
    if (held) return held;
    if (!sessions.journaled) return notFound;
    const resumable = await sessions.resume(id, id);
    if (!resumable.ok)
      return resumable.error.code === "CAPACITY"
        ? { error: resumable.error.message, status: 503, code: RPC.SERVER_ERROR }
        : notFound;
    const owner = { key: id, onEvicted: () => void episodes.delete(id) };
    const scenario = sessions.rebind(id, owner) ? sessions.scenarioOf(id, id) : null;
    if (!scenario) return notFound;
    const handle = { id, key: id, scenario };
    episodes.set(id, handle);
    return handle;
  }

  /** Ends an episode and its session, whichever way it started; answers once the episode is
   * closed and its worker free, as DELETE /mcp does. */
  async function endEpisode(handle: EpisodeHandle) {
    episodes.delete(handle.id);
    await sessions.close(handle.id, handle.key);
    // The session's own close (server.onclose) then finds the episode already closed.
    await live.get(handle.id)?.close();
  }

  /**
   * One request of a session whose SDK transport is not here (taken over, or started by POST
   * /mcp/episodes), on a stateless transport of its own: the session was checked by episodeOf,
   * and the SDK's session state (the `initialize` it answered) is not needed to answer.
   */
  async function serveWithoutTransport(
    handle: EpisodeHandle,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createEpisodeServer(sessions, handle);
    await server.connect(transport);
    try {
      await answerOverNode(transport, req, res, body);
    } finally {
      await server.close();
    }
  }

  /** `initialize`: starts the episode, then lets the SDK answer the handshake. */
  async function start(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) {
    if (lifecycle.draining()) return sendRpcError(res, 503, RPC.SERVER_ERROR, DRAINING_MESSAGE);
    const meta = MetaSchema.safeParse(body);
    const given = meta.success ? (meta.data.params._meta ?? {}) : {};
    const choice = StartSchema.safeParse({
      scenario: url.searchParams.get("scenario") ?? given["envstudio/scenario"],
      seed: url.searchParams.get("seed") ?? given["envstudio/seed"],
    });
    if (!choice.success)
      return sendRpcError(
        res,
        400,
        RPC.INVALID_PARAMS,
        "scenario must be a scenario id, seed an integer ≥ 0",
      );
    // Idle reaping ended the episode: the session ends with it (later requests get 404).
    const handle = await startEpisode(choice.data, (id) => void live.get(id)?.close());
    if ("error" in handle) return sendRpcError(res, handle.status, handle.code, handle.error);
    const { id } = handle;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      // DELETE answers once the episode is closed and its worker free, so that a client's next
      // session never finds the server still at capacity.
      onsessionclosed: async () => void (await sessions.close(id, handle.key)),
    });
    live.set(id, transport);
    const server = createEpisodeServer(sessions, handle);
    server.onclose = () => {
      live.delete(id);
      episodes.delete(id);
      void sessions.close(id, handle.key);
    };
    await server.connect(transport);
    await answerOverNode(transport, req, res, body);
  }

  async function post(req: IncomingMessage, res: ServerResponse, url: URL, sessionId: string | undefined) {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (sessionId === undefined) return sendJson(res, 200, await handleMcpText(sessions, text));
      return sendRpcError(res, 400, RPC.PARSE_ERROR, "Parse error: Invalid JSON");
    }
    if (sessionId !== undefined) {
      const transport = live.get(sessionId);
      if (transport) return answerOverNode(transport, req, res, body);
      const held = await episodeOf(sessionId);
      if ("error" in held) return sendRpcError(res, held.status, held.code, held.error);
      return serveWithoutTransport(held, req, res, body);
    }
    if (isInitializeRequest(body)) return start(req, res, url, body);
    return sendJson(res, 200, await handleMcp(sessions, body));
  }

  const episodeUrls = createEpisodeUrls({
    lifecycle,
    episodeOf,
    held: (id) => episodes.get(id),
    endEpisode,
    sessions,
    start: startEpisode,
  });

  /** Answers any request to /mcp or under /mcp/episodes; never throws (a failure is the
   * client's JSON-RPC error). */
  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    try {
      if (url.pathname !== "/mcp") return await lifecycle.track(() => episodeUrls.handle(req, res, url));
      if (req.method === "POST") return await lifecycle.track(() => post(req, res, url, sessionId));
      if (req.method !== "GET" && req.method !== "DELETE")
        return sendRpcError(res, 405, RPC.SERVER_ERROR, "Method not allowed.", {
          allow: "GET, POST, DELETE",
        });
      // No server-initiated messages exist here (no list changes, no sampling), so there is no
      // stream to offer: the specification's answer is 405, and clients then go on without one.
      if (req.method === "GET")
        return sendRpcError(
          res,
          405,
          RPC.SERVER_ERROR,
          "Method not allowed: this server sends no SSE stream",
          {
            allow: "POST, DELETE",
          },
        );
      if (sessionId === undefined)
        return sendRpcError(res, 400, RPC.SERVER_ERROR, "Bad Request: Mcp-Session-Id header is required");
      const transport = live.get(sessionId);
      if (transport) return await answerOverNode(transport, req, res);
      const held = await episodeOf(sessionId);
      if ("error" in held) return sendRpcError(res, held.status, held.code, held.error);
      // DELETE of a session without its transport here: the episode ends, as it would there.
      await endEpisode(held);
      endReply(res, 200, {});
    } catch (error) {
      if (error instanceof HttpError) return sendRpcError(res, error.status, RPC.SERVER_ERROR, error.message);
      sendRpcError(res, 500, RPC.INTERNAL_ERROR, error instanceof Error ? error.message : String(error));
    }
  }

  return {
    handle,
    /** Live MCP episodes (sessions, episode URLs and taken-over ones). */
    size: () => episodes.size,
    closeAll: async () => {
      await Promise.all([...live.values()].map((t) => t.close()));
      await episodeUrls.close();
    },
  };
}
