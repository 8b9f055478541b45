/**
 * TEST ONLY. A counter dataset to serve, a WebSocket client speaking OpenEnv's messages, and raw
 * TCP access for crafting WebSocket frames by hand (RFC 6455 §5.2).
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import WebSocket from "ws";
import { COUNTER_ENV, COUNTER_SOURCE } from "@/lib/export/testing/fixture";
import type { SandboxRunner } from "@/lib/sandbox";
import type { Catalog } from "../catalog";
import type { ServeOptions } from "../start-server";

/** A loopback server's options as most tests want them; each test overrides what it is about. */
export const loopbackOptions = (overrides: Partial<ServeOptions> = {}): ServeOptions => ({
  port: 0,
  host: "127.0.0.1",
  maxSessions: 8,
  sandboxWorkers: 2,
  maxSteps: 40,
  idleMs: 600_000,
  ...overrides,
});

export const COUNTER_INIT = { count: 0, log: [] };
export const counterCatalog = (): Catalog => ({
  name: "counters",
  scenarios: [
    {
      id: "counter/c1",
      envId: "counter",
      taskId: "c1",
      task: "Add 1 to the counter.",
      source: COUNTER_SOURCE,
      className: "Counter",
      tools: COUNTER_ENV.tools,
      initialState: COUNTER_INIT,
      checks: [
        "def check_func(final_state):\n    return final_state['count'] == initial_state['count'] + 1\n",
      ],
      queryTools: ["get_count"],
    },
  ],
});

/** The counter with one more tool, `explode`, that always raises. */
export const EXPLODING_SOURCE = `${COUNTER_SOURCE}
    def explode(self) -> dict:
        """Always raises."""
        raise ValueError("boom")
`;

/** The counter dataset plus `explode/e1`, the exploding counter (its tools read by the sandbox). */
export async function countersWithExplode(sandbox: SandboxRunner): Promise<Catalog> {
  const tools = await sandbox.extractTools(EXPLODING_SOURCE, "Counter");
  if (!tools.ok) throw new Error(tools.error.message);
  const counters = counterCatalog();
  const [first] = counters.scenarios;
  if (!first) throw new Error("no counter scenario");
  const explode = { ...first, id: "explode/e1", envId: "explode", taskId: "e1", source: EXPLODING_SOURCE };
  return { ...counters, scenarios: [...counters.scenarios, { ...explode, tools: tools.value }] };
}

export type WsReply = {
  type: string;
  data: Record<string, unknown> & {
    observation?: Record<string, unknown>;
    reward?: number | null;
    done?: boolean;
  };
};

/** One WebSocket session: `send` returns the reply to that message (replies arrive in order). */
export function wsSession(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const inbox: WsReply[] = [];
  const waiters: { resolve: (m: WsReply) => void; reject: (e: Error) => void }[] = [];
  ws.on("message", (d: Buffer) => {
    const m = JSON.parse(d.toString()) as WsReply;
    const w = waiters.shift();
    if (w) w.resolve(m);
    else inbox.push(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => {
      // A reply that will never come fails at once instead of hanging the test.
      for (const w of waiters.splice(0)) w.reject(new Error(`socket closed (${code}) before the reply`));
      resolve({ code, reason: reason.toString() });
    }),
  );
  /** The upgrade answer's headers (the routing handle, X-Envstudio-Episode, among them). */
  const upgraded = new Promise<Record<string, string | string[] | undefined>>((resolve) =>
    ws.once("upgrade", (res) => resolve(res.headers)),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const sendNow = (msg: unknown): Promise<WsReply> => {
    ws.send(JSON.stringify(msg));
    const queued = inbox.shift();
    return queued
      ? Promise.resolve(queued)
      : new Promise<WsReply>((resolve, reject) => waiters.push({ resolve, reject }));
  };
  // On an open socket the message leaves synchronously, so a test can hang up right behind it.
  const send = (msg: unknown): Promise<WsReply> =>
    ws.readyState === WebSocket.OPEN ? sendNow(msg) : opened.then(() => sendNow(msg));
  return { send, opened, upgraded, closed, close: () => ws.close() };
}

/** A raw TCP connection that has completed the WebSocket opening handshake on `path`. */
export async function rawWebSocket(
  port: number,
  path: string,
): Promise<{
  socket: Socket;
  received: () => Buffer;
  ended: Promise<void>;
  closeCode: () => Promise<number | null>;
}> {
  const socket = connect(port, "127.0.0.1");
  let data = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => void (data = Buffer.concat([data, chunk])));
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  while (!data.includes("\r\n\r\n")) await new Promise((resolve) => socket.once("data", resolve));
  const head = data.subarray(0, data.indexOf("\r\n\r\n") + 4).toString();
  if (!head.startsWith("HTTP/1.1 101")) throw new Error(`handshake refused: ${head.split("\r\n")[0]}`);
  const bodyStart = data.indexOf("\r\n\r\n") + 4;
  const received = () => data.subarray(bodyStart);
  let isEnded = false;
  void ended.then(() => (isEnded = true));
  /** Waits for the server's close frame (or the end of the connection), answers it as a client
   * should (closing its side), and returns the frame's status code. */
  const closeCode = async () => {
    while (closeCodeOf(received()) === null && !isEnded)
      await Promise.race([new Promise((resolve) => socket.once("data", resolve)), ended]);
    socket.end();
    await ended;
    return closeCodeOf(received());
  };
  return { socket, received, ended, closeCode };
}

type FrameSpec = {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  rsv?: number;
  masked?: boolean;
  declaredLength?: number;
};

/** One frame as RFC 6455 §5.2 lays it out; `declaredLength` may claim more than is sent. */
export function frame({
  opcode,
  payload = Buffer.alloc(0),
  fin = true,
  rsv = 0,
  masked = true,
  declaredLength,
}: FrameSpec): Buffer {
  const length = declaredLength ?? payload.length;
  const first = (fin ? 0x80 : 0) | ((rsv & 0x7) << 4) | (opcode & 0xf);
  const maskBit = masked ? 0x80 : 0;
  let header: Buffer;
  if (length < 126) header = Buffer.from([first, maskBit | length]);
  else if (length < 65536) header = Buffer.from([first, maskBit | 126, length >> 8, length & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = maskBit | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ (key[i % 4] ?? 0)));
  return Buffer.concat([header, key, body]);
}

/** The status code of the first close frame the server sent (unmasked, opcode 0x8), if any. */
export function closeCodeOf(bytes: Buffer): number | null {
  let i = 0;
  while (i + 2 <= bytes.length) {
    const opcode = (bytes[i] ?? 0) & 0xf;
    let length = (bytes[i + 1] ?? 0) & 0x7f;
    let start = i + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(start);
      start += 2;
    }
    if (opcode === 0x8) return length >= 2 ? bytes.readUInt16BE(start) : null;
    i = start + length;
  }
  return null;
}
