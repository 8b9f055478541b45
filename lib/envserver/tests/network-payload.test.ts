// Network isolation, surface "env server": the RL environment server (startEnvServer, as `envstudio serve`
// wires it, on a sandbox runner from the same SANDBOX_* configuration, unjailed) serves a scenario
// whose tool and check carry the network payload (tests/network-canary.ts). A WebSocket client and
// an HTTP client reset, step the payload tool, step a normal tool and submit: observations show
// every route blocked, the check earns reward 1, and the loopback listener, checked after a wait
// for delayed payloads, saw no connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectEveryRouteBlocked,
  payloadCheck,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import type { Catalog } from "../catalog";
import { startEnvServer } from "../start-server";
import { loopbackOptions, wsSession } from "./harness";

const canary = useCanary();
const sandbox = useUnjailedProductSandbox();
let server: Awaited<ReturnType<typeof startEnvServer>>;

async function payloadCatalog(port: number): Promise<Catalog> {
  const source = payloadEnvironment(port);
  const tools = await sandbox().extractTools(source, "Counter");
  if (!tools.ok) throw new Error(tools.error.message);
  const checks = [payloadCheck(port, "final_state['count'] == initial_state['count'] + 1")];
  return {
    name: "payload",
    scenarios: [
      {
        id: "counter/p1",
        envId: "counter",
        taskId: "p1",
        task: "Look it up, then add one.",
        source,
        className: "Counter",
        tools: tools.value,
        initialState: { count: 0 },
        checks,
      },
    ],
  };
}

beforeAll(async () => {
  server = await startEnvServer(
    await payloadCatalog(canary.port),
    sandbox(),
    loopbackOptions({ maxSessions: 4, idleMs: 60_000 }),
  );
});
afterAll(() => server?.stop());

const REACH = { tool_name: "reach_out", arguments: {} };
const ADD_1 = { tool_name: "add", arguments: { amount: 1 } };
const SUBMIT = { tool_name: "submit", arguments: {} };
type Reply = {
  observation: { content: { success?: boolean; data?: unknown }; metadata: Record<string, string> };
  reward: number | null;
  done: boolean;
};

async function post(path: string, body: unknown): Promise<Reply> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}

describe("env server: network payload (host not jailed)", () => {
  it("steps the payload over WebSocket and HTTP to reward 1, every route blocked, and the listener sees no connection", async () => {
    const ws = wsSession(`ws://127.0.0.1:${server.port}/ws`);
    expect(await ws.send({ type: "reset", data: {} })).toMatchObject({
      type: "observation",
      data: { done: false },
    });
    const reached = await ws.send({ type: "step", data: REACH });
    expect(reached).toMatchObject({
      type: "observation",
      data: { done: false, observation: { content: { success: true } } },
    });
    expectEveryRouteBlocked((reached.data.observation as Reply["observation"]).content.data);
    expect(await ws.send({ type: "step", data: ADD_1 })).toMatchObject({
      data: { done: false, observation: { content: { success: true, data: 1 } } },
    });
    expect(await ws.send({ type: "step", data: SUBMIT })).toMatchObject({ data: { done: true, reward: 1 } });
    void ws.send({ type: "close" }).catch(() => undefined);
    await ws.closed;

    const reset = await post("/reset", {});
    const session = {
      episode_id: reset.observation.metadata.episode_id,
      session_key: reset.observation.metadata.session_key,
    };
    const stepped = await post("/step", { ...session, action: REACH });
    expect(stepped).toMatchObject({ done: false, observation: { content: { success: true } } });
    expectEveryRouteBlocked(stepped.observation.content.data);
    await post("/step", { ...session, action: ADD_1 });
    expect(await post("/step", { ...session, action: SUBMIT })).toMatchObject({ done: true, reward: 1 });
    expect(await canary.settle()).toBe(0);
  });
});
