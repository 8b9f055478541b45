/**
 * Readiness and graceful drain: while a step is in flight the server is told to drain; from then
 * on GET /ready answers 503, new WebSocket sessions, new HTTP episodes and new episodes on an open
 * socket are refused with DRAINING, liveness still answers, and the step in flight gets its real
 * observation before the drain resolves and the server closes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import type { Catalog } from "../catalog";
import { startEnvServer } from "../start-server";
import { loopbackOptions, wsSession } from "./harness";

const SOURCE = `
import time

class Slow:
    def __init__(self):
        self.done = 0

    def work(self, seconds: float) -> dict:
        """Works for the given number of seconds."""
        time.sleep(seconds)
        self.done += 1
        return {"done": self.done}
`;

let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
const base = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 4, stepTimeoutMs: 20_000 });
  const tools = await sandbox.extractTools(SOURCE, "Slow");
  if (!tools.ok) throw new Error(tools.error.message);
  const catalog: Catalog = {
    name: "slow",
    scenarios: [
      {
        id: "slow/s1",
        envId: "slow",
        taskId: "s1",
        task: "Work.",
        source: SOURCE,
        className: "Slow",
        tools: tools.value,
        initialState: { done: 0 },
        checks: ["def check_func(final_state):\n    return final_state['done'] == 1\n"],
      },
    ],
  };
  server = await startEnvServer(catalog, sandbox, loopbackOptions({ sandboxWorkers: 4, maxSteps: 10 }));
}, 120_000);

afterAll(async () => {
  await server.stop().catch(() => undefined);
  await sandbox.close();
});

describe("graceful drain", () => {
  it(
    "refuses new sessions and episodes, keeps liveness, and lets the call in flight answer before closing",
    { timeout: 120_000 },
    async () => {
      const ready = await fetch(`${base()}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready", capacity: 4 });

      const busy = wsSession(`ws://127.0.0.1:${server.port}/ws`);
      const reset = await busy.send({ type: "reset", data: {} });
      expect(reset.type).toBe("observation");
      // A step that takes a while, in flight when the drain starts.
      const slowStep = busy.send({ type: "step", data: { tool_name: "work", arguments: { seconds: 1.5 } } });
      while (server.sessions.live() === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      const drained = server.drain(60_000);

      const notReady = await fetch(`${base()}/ready`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ status: "draining" });
      expect((await fetch(`${base()}/health`)).status).toBe(200);

      const httpReset = await fetch(`${base()}/reset`, { method: "POST", body: "{}" });
      expect(httpReset.status).toBe(503);
      expect(await httpReset.json()).toMatchObject({ error: { code: "DRAINING" } });

      const newcomer = wsSession(`ws://127.0.0.1:${server.port}/ws`);
      await expect(newcomer.opened).rejects.toThrow("HTTP 503");

      // The step in flight answers with its real observation.
      const stepped = await slowStep;
      expect(stepped).toMatchObject({ type: "observation", data: { observation: { content: { done: 1 } } } });
      // A new episode on the open socket is refused too.
      const again = await busy.send({ type: "reset", data: {} });
      expect(again).toMatchObject({ type: "error", data: { code: "DRAINING" } });

      expect(await drained).toBe(true);
      await server.stop();
      await expect(fetch(`${base()}/health`)).rejects.toThrow();
    },
  );
});
