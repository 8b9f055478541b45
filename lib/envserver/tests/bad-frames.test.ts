/**
 * A client that breaks the WebSocket protocol loses its own connection, nothing more: frames
 * crafted by hand on raw TCP sockets against a server in its own process (real sandbox), while
 * another client's live session keeps working and the process stays up.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frame, rawWebSocket, wsSession } from "./harness";

let child: ChildProcess;
let port: number;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "tests/child/env-server.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  port = (JSON.parse(String((await lines.next()).value)) as { port: number }).port;
});
afterAll(() => {
  child?.kill("SIGTERM");
});

const text = (s: string) => Buffer.from(s, "utf8");
// Each case: the frame, and the close code RFC 6455 §7.4.1 assigns to that fault.
const BAD_FRAMES: [string, Buffer, number][] = [
  ["RSV1 set without a negotiated extension", frame({ opcode: 0x1, payload: text("{}"), rsv: 0b100 }), 1002],
  ["RSV2 and RSV3 set", frame({ opcode: 0x1, payload: text("{}"), rsv: 0b011 }), 1002],
  ["reserved data opcode 0x3", frame({ opcode: 0x3, payload: text("x") }), 1002],
  ["reserved control opcode 0xB", frame({ opcode: 0xb }), 1002],
  ["unmasked client frame", frame({ opcode: 0x1, payload: text('{"type":"state"}'), masked: false }), 1002],
  [
    "text frame with invalid UTF-8",
    frame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]) }),
    1007,
  ],
  ["frame declaring 2 GiB", frame({ opcode: 0x2, declaredLength: 2 ** 31 }), 1009],
  ["fragmented control frame", frame({ opcode: 0x9, fin: false }), 1002],
];

describe("the env server survives bad clients", () => {
  it("closes only the offending connection; another session keeps stepping and the process stays up", async () => {
    const good = wsSession(`ws://127.0.0.1:${port}/ws`);
    expect(await good.send({ type: "reset", data: {} })).toMatchObject({
      type: "observation",
      data: { done: false },
    });
    let expectedCount = 0;
    for (const [name, bytes, code] of BAD_FRAMES) {
      const raw = await rawWebSocket(port, "/ws");
      raw.socket.write(bytes);
      expect({ name, code: await raw.closeCode() }).toEqual({ name, code });
      expectedCount += 1;
      const stepped = await good.send({ type: "step", data: { tool_name: "add", arguments: { amount: 1 } } });
      expect(stepped).toMatchObject({
        type: "observation",
        data: { done: false, observation: { content: { success: true, data: expectedCount } } },
      });
    }
    expect(child.exitCode).toBeNull();
    expect(await (await fetch(`http://127.0.0.1:${port}/health`)).json()).toEqual({ status: "healthy" });
    good.close();
  });

  it("survives a client that resets its TCP connection mid-handshake and mid-frame", async () => {
    const raw = await rawWebSocket(port, "/ws");
    raw.socket.write(frame({ opcode: 0x1, payload: text('{"type":"reset","data":{}}') }).subarray(0, 5));
    raw.socket.resetAndDestroy();
    await raw.ended;
    const session = wsSession(`ws://127.0.0.1:${port}/ws`);
    expect(await session.send({ type: "reset", data: {} })).toMatchObject({ type: "observation" });
    session.close();
    expect(child.exitCode).toBeNull();
  });
});
