/**
 * One WebSocket = one session (OpenEnv /ws): reset, step, state, close and mcp messages, answered
 * in order with upstream's envelopes (`{type: "observation" | "state" | "error" | "mcp", data}`).
 * The session belongs to this connection: without the journal its owner key never leaves the
 * process and the session ends with the connection. With the journal (ENVSTUDIO_SERVE_JOURNAL=1)
 * the reset observation carries the key, and a connection that drops without `close` leaves the
 * episode open (until idle reaping) for a new connection to resume, on any replica:
 * `/ws?episode_id=<id>` with the key in the `X-Session-Key` header (http-server.ts).
 */
import { randomBytes } from "node:crypto";
import type { WebSocket } from "ws";
import { WsMessageSchema } from "./envserver.schema";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { handleMcp } from "./mcp";
import type { Owner, Sessions } from "./sessions";
import { formatZodIssues } from "../core/zod-issues";

/** Close code when the server reaps an idle session (4000–4999: for applications). */
export const WS_CLOSE_IDLE = 4408;
/** Close code when another connection resumed this connection's episode. */
export const WS_CLOSE_REPLACED = 4409;

/**
 * What a connection acts on (http-server.ts decides at the upgrade):
 * - `new`: a session of its own, started by its resets;
 * - `attach`: a session created over HTTP by `openenv/session/create` (`/ws?session_id=`, as
 *   upstream's MCPToolClient connects); leaving detaches without ending it (its HTTP side closes
 *   it, or the idle reaper);
 * - `resume`: an episode started by an earlier connection (`/ws?episode_id=` + its key), already
 *   checked resumable here; the connection goes on as that one would have.
 */
export type WsBinding =
  { kind: "new"; id: string } | { kind: "attach"; id: string } | { kind: "resume"; id: string; key: string };

export function attachWebSocket(ws: WebSocket, sessions: Sessions, lifecycle: Lifecycle, binding: WsBinding) {
  const sessionId = binding.id;
  let replaced = false;
  const owner: Owner = {
    // An attached session's key is its id (mcp.ts, openenv/session/create).
    key:
      binding.kind === "attach"
        ? binding.id
        : binding.kind === "resume"
          ? binding.key
          : randomBytes(18).toString("base64url"),
    onEvicted: (reason: string) => ws.close(WS_CLOSE_IDLE, reason.slice(0, 120)),
    onReplaced: () => {
      replaced = true;
      ws.close(WS_CLOSE_REPLACED, "another connection resumed this episode");
    },
  };
  if (binding.kind === "resume" && !sessions.rebind(sessionId, owner))
    ws.close(WS_CLOSE_IDLE, `episode ${sessionId} was closed before this connection could resume it`);
  /** An explicit `close` ends the episode; a dropped connection does only without the journal. */
  const endSession = async (explicit: boolean) => {
    if (binding.kind === "attach" || replaced || (!explicit && sessions.journaled)) return;
    await sessions.close(sessionId, owner.key);
  };
  let queue: Promise<void> = Promise.resolve();
  const reply = (type: string, data: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type, data }));
  };
  const error = (code: string, message: string) => reply("error", { code, message });

  async function handle(raw: string) {
    if (replaced) return error("REPLACED", "another connection resumed this episode");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return error("INVALID_JSON", "message is not JSON");
    }
    const msg = WsMessageSchema.safeParse(json);
    if (!msg.success) return error("INVALID", formatZodIssues(msg.error, { root: "message", max: 1 }));
    const m = msg.data;
    if (m.type === "reset") {
      if (lifecycle.draining()) return error("DRAINING", DRAINING_MESSAGE);
      const r = await sessions.reset({ ...m.data, episode_id: sessionId, session_key: undefined }, owner);
      if (!r.ok) return error(r.error.code, r.error.message);
      const { observation, reward, done } = r.value.reply;
      // The key lets a later connection resume the episode; without the journal there is none.
      const metadata = sessions.journaled
        ? { ...observation.metadata, session_key: owner.key }
        : observation.metadata;
      return reply("observation", { observation: { ...observation, metadata }, reward, done });
    }
    if (m.type === "step") {
      const r = await sessions.step(sessionId, m.data, owner.key);
      return r.ok ? reply("observation", r.value) : error(r.error.code, r.error.message);
    }
    if (m.type === "state") {
      const r = await sessions.state(sessionId, owner.key);
      return r.ok ? reply("state", r.value) : error(r.error.code, r.error.message);
    }
    if (m.type === "mcp")
      return reply("mcp", await handleMcp(sessions, m.data, { id: sessionId, key: owner.key }));
    await endSession(true);
    ws.close(1000);
  }

  // Messages of one socket run one at a time, so a fast client cannot interleave its own steps.
  // A message counts as in flight from its arrival, so a drain waits for the ones queued too.
  ws.on("message", (data: Buffer) => {
    const next = queue
      .then(() => handle(data.toString("utf8")))
      .catch((e: unknown) => error("INTERNAL", e instanceof Error ? e.message : String(e)));
    queue = next;
    void lifecycle.track(() => next);
  });
  // A malformed frame (bad opcode, RSV bits, unmasked, invalid UTF-8, too large) is reported here;
  // ws then closes this connection with the matching code. Unhandled, it would crash the process.
  ws.on("error", () => undefined);
  // Queued behind any reset still loading, so a client that hangs up mid-reset cannot leave a
  // session (and its sandbox worker) behind until the idle reaper comes — unless the journal keeps
  // it open for a resume, as it does for every episode.
  ws.on("close", () => {
    queue = queue.then(() => endSession(false));
  });
}
