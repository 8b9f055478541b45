/** One WebSocket = one session (OpenEnv /ws): reset, step, state, close; messages answered in order. */
import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import { WsMessageSchema } from "./envserver.schema";
import type { Sessions } from "./sessions";

export function attachWebSocket(ws: WebSocket, sessions: Sessions) {
  const sessionId = `ws-${randomUUID()}`;
  let queue: Promise<void> = Promise.resolve();
  const reply = (type: string, data: unknown) => ws.send(JSON.stringify({ type, data }));
  const error = (code: string, message: string) => reply("error", { code, message });

  async function handle(raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return error("INVALID", "message is not JSON");
    }
    const msg = WsMessageSchema.safeParse(json);
    if (!msg.success) return error("INVALID", `${msg.error.issues[0]?.path.join(".") || "message"}: ${msg.error.issues[0]?.message}`);
    const m = msg.data;
    if (m.type === "reset") {
      const r = await sessions.reset({ ...m.data, episode_id: sessionId });
      return r.ok ? reply("observation", r.value.reply) : error(r.error.code, r.error.message);
    }
    if (m.type === "step") {
      const r = await sessions.step(sessionId, m.data);
      return r.ok ? reply("observation", r.value) : error(r.error.code, r.error.message);
    }
    if (m.type === "state") {
      const r = await sessions.state(sessionId);
      return r.ok ? reply("state", r.value) : error(r.error.code, r.error.message);
    }
    await sessions.close(sessionId);
    ws.close(1000);
  }

  // Messages of one socket run one at a time, so a fast client cannot interleave its own steps.
  ws.on("message", (data: Buffer) => {
    queue = queue.then(() => handle(data.toString("utf8"))).catch((e: unknown) => error("INTERNAL", e instanceof Error ? e.message : String(e)));
  });
  ws.on("close", () => void sessions.close(sessionId));
}
