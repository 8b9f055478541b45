/**
 * One WebSocket = one session (OpenEnv /ws): reset, step, state, close and mcp messages, answered
 * in order with upstream's envelopes (`{type: "observation" | "state" | "error" | "mcp", data}`).
 * The session belongs to this connection alone: its owner key never leaves the process.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import { WsMessageSchema } from "./envserver.schema";
import { DRAINING_MESSAGE, type Lifecycle } from "./lifecycle";
import { handleMcp } from "./mcp";
import type { Sessions } from "./sessions";
import { formatZodIssues } from "../core/zod-issues";

/** Close code when the server reaps an idle session (4000–4999: for applications). */
export const WS_CLOSE_IDLE = 4408;

/**
 * `attachTo`: a session created over HTTP by `openenv/session/create` (`/ws?session_id=`, as
 * upstream's MCPToolClient connects): the socket acts on it, and leaving detaches without ending
 * it (its HTTP side closes it, or the idle reaper).
 */
export function attachWebSocket(ws: WebSocket, sessions: Sessions, lifecycle: Lifecycle, attachTo?: string) {
  const sessionId = attachTo ?? `ws-${randomUUID()}`;
  const owner = {
    // An attached session's key is its id (mcp.ts, openenv/session/create).
    key: attachTo ?? randomBytes(18).toString("base64url"),
    onEvicted: (reason: string) => ws.close(WS_CLOSE_IDLE, reason.slice(0, 120)),
  };
  const endSession = async () => void (attachTo ? undefined : await sessions.close(sessionId, owner.key));
  let queue: Promise<void> = Promise.resolve();
  const reply = (type: string, data: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type, data }));
  };
  const error = (code: string, message: string) => reply("error", { code, message });

  async function handle(raw: string) {
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
      return r.ok ? reply("observation", r.value.reply) : error(r.error.code, r.error.message);
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
    await endSession();
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
  // session (and its sandbox worker) behind until the idle reaper comes.
  ws.on("close", () => {
    queue = queue.then(endSession);
  });
}
