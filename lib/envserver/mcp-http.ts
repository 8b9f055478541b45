/**
 * MCP over Streamable HTTP at /mcp (specification 2025-11-25, basic/transports), on the official
 * SDK's StreamableHTTPServerTransport, one MCP session per episode:
 * - an `initialize` POST without `Mcp-Session-Id` starts an episode (the scenario from
 *   `?scenario=` or `params._meta["envstudio/scenario"]`, else picked as a reset picks it, by
 *   `seed` when given) and its id is the session's `Mcp-Session-Id`;
 * - later requests name it in that header; an unknown or expired one is 404 (the client starts
 *   over); DELETE ends the session and its episode; GET is 405 (no SSE stream: the server
 *   never speaks first); the SDK checks `MCP-Protocol-Version`, Accept and Content-Type;
 * - a POST naming no MCP session that is not `initialize` is OpenEnv's JSON-RPC (mcp.ts), as
 *   upstream's clients send it.
 * The episode lives exactly as long as the session: ending one ends the other, whichever side
 * (client DELETE, idle reaping, server stop) ends it. With the journal (ENVSTUDIO_SERVE_JOURNAL=1)
 * a session outlives its replica: a request naming a session another replica started is served
 * here once the journal's episode is taken over (the session id is the episode's key, as the
 * session id is the client's only credential in MCP). Access checks (auth.ts) run before this.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HttpError, MAX_BODY } from "./http-routes";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { RPC, handleMcp, handleMcpText } from "./mcp";
import { type EpisodeHandle, createEpisodeServer } from "./mcp-episode-server";
import type { ServeError, Sessions } from "./sessions";

/** The SDK's code for an unknown session (its transport answers the same). */
const SESSION_NOT_FOUND = -32001;

const StartSchema = z.object({
  scenario: z.string().min(1).max(255).optional(),
  seed: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
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

function sendRpcError(res: ServerResponse, status: number, code: number, message: string, headers = {}) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

const START_STATUS: Record<ServeError["code"], number> = {
  NOT_FOUND: 404,
  INVALID: 400,
  FORBIDDEN: 403,
  CAPACITY: 503,
  SANDBOX: 502,
  GONE: 410,
};

export function createMcpEndpoint(sessions: Sessions, lifecycle: Lifecycle) {
  const live = new Map<string, StreamableHTTPServerTransport>();

  /** Sessions another replica started, taken over here (see takeOver). */
  const adopted = new Map<string, EpisodeHandle>();
  type Refusal = { error: string; status: number; code: number };
  const notFound: Refusal = { error: "Session not found", status: 404, code: SESSION_NOT_FOUND };

  /**
   * A session this replica does not hold: with the journal, its episode is taken over (rebuilt by
   * replaying its calls) unless it ended, and the session goes on here. Otherwise 404, after
   * which an MCP client starts a new session.
   */
  async function takeOver(id: string): Promise<EpisodeHandle | Refusal> {
    if (!sessions.journaled) return notFound;
    const resumable = await sessions.resume(id, id);
    if (!resumable.ok)
      return resumable.error.code === "CAPACITY"
        ? { error: resumable.error.message, status: 503, code: RPC.SERVER_ERROR }
        : notFound;
    const owner = { key: id, onEvicted: () => void adopted.delete(id) };
    const scenario = sessions.rebind(id, owner) ? sessions.scenarioOf(id, id) : null;
    if (!scenario) return notFound;
    const handle = { id, key: id, scenario };
    adopted.set(id, handle);
    return handle;
  }

  /**
   * One request of a session taken over, on a stateless transport of its own: the session was
   * checked above (the adopted map), and the SDK's session state (the `initialize` it answered)
   * died with the replica that held it.
   */
  async function serveTakenOver(
    handle: EpisodeHandle,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ) {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createEpisodeServer(sessions, handle);
    await server.connect(transport);
    try {
      await transport.handleRequest(req, res, body);
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
    // The session id is unguessable and is all an MCP client holds: it is the episode's key too,
    // so that any replica can take the session over from the journal.
    const id = randomUUID();
    const owner = {
      key: id,
      // Idle reaping ended the episode: the session ends with it (later requests get 404).
      onEvicted: () => void live.get(id)?.close(),
    };
    const reset = await sessions.reset(
      { scenario_id: choice.data.scenario, seed: choice.data.seed, diff: true, episode_id: id },
      owner,
    );
    if (!reset.ok)
      return sendRpcError(res, START_STATUS[reset.error.code], RPC.SERVER_ERROR, reset.error.message);
    const { scenario } = reset.value;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      // DELETE answers once the episode is closed and its worker free, so that a client's next
      // session never finds the server still at capacity.
      onsessionclosed: async () => void (await sessions.close(id, owner.key)),
    });
    live.set(id, transport);
    const server = createEpisodeServer(sessions, { id, key: owner.key, scenario });
    server.onclose = () => {
      live.delete(id);
      void sessions.close(id, owner.key);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
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
      if (transport) return transport.handleRequest(req, res, body);
      const taken = adopted.get(sessionId) ?? (await takeOver(sessionId));
      if ("error" in taken) return sendRpcError(res, taken.status, taken.code, taken.error);
      return serveTakenOver(taken, req, res, body);
    }
    if (isInitializeRequest(body)) return start(req, res, url, body);
    return sendJson(res, 200, await handleMcp(sessions, body));
  }

  /** Answers any request to /mcp; never throws (a failure is the client's JSON-RPC error). */
  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    try {
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
      if (transport) return await transport.handleRequest(req, res);
      const taken = adopted.get(sessionId) ?? (await takeOver(sessionId));
      if ("error" in taken) return sendRpcError(res, taken.status, taken.code, taken.error);
      // DELETE of a session taken over: the episode ends here, as it would have there.
      adopted.delete(sessionId);
      await sessions.close(sessionId, taken.key);
      res.writeHead(200).end();
    } catch (error) {
      if (error instanceof HttpError) return sendRpcError(res, error.status, RPC.SERVER_ERROR, error.message);
      sendRpcError(res, 500, RPC.INTERNAL_ERROR, error instanceof Error ? error.message : String(error));
    }
  }

  return {
    handle,
    /** Live MCP sessions (each holds an episode), taken-over ones included. */
    size: () => live.size + adopted.size,
    closeAll: () => Promise.all([...live.values()].map((t) => t.close())),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The body as text; past MAX_BODY the rest is read and dropped (so that the client hears the 413
 * instead of a reset connection) and the read fails. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () =>
      size > MAX_BODY
        ? reject(new HttpError(413, `Request body larger than ${MAX_BODY} bytes`))
        : resolve(Buffer.concat(chunks).toString("utf8")),
    );
    req.on("error", reject);
  });
}
