/**
 * The step budget holds under concurrency: a call is counted before it is queued, so twelve
 * /step calls and a submit sent at once run at most ENVSTUDIO_SERVE_MAX_STEPS of them (submit
 * included). Evidence: the environment's own state afterwards (how many `add`s really ran).
 * And an empty session_key never names a session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import type { Catalog } from "../catalog";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions } from "./harness";

const MAX_STEPS = 6;
let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;

/** The counter, with a check that needs ten adds: unreachable within the budget. */
function tenAddsCatalog(): Catalog {
  const catalog = counterCatalog();
  const [scenario] = catalog.scenarios;
  return {
    ...catalog,
    scenarios: [
      { ...scenario!, checks: ["def check_func(final_state):\n    return final_state['count'] >= 10\n"] },
    ],
  };
}

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 2 });
  server = await startEnvServer(
    tenAddsCatalog(),
    sandbox,
    loopbackOptions({ maxSteps: MAX_STEPS, idleMs: 60_000 }),
  );
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

type Reply = {
  status: number;
  body: {
    error?: { code: string; message: string };
    observation?: { content?: unknown; metadata?: Record<string, unknown> };
    reward?: number | null;
    done?: boolean;
    snapshot?: { count?: number };
  };
};

async function http(method: "GET" | "POST", path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Reply["body"] };
}

describe("step budget", () => {
  it("twelve concurrent steps and a submit run at most the budget, and the reward is not earned", async () => {
    const reset = await http("POST", "/reset", {});
    const meta = reset.body.observation?.metadata ?? {};
    const session = { episode_id: String(meta.episode_id), session_key: String(meta.session_key) };
    const add = { type: "call_tool", tool_name: "add", arguments: { amount: 1 } };
    const submit = { type: "call_tool", tool_name: "submit", arguments: {} };
    const replies = await Promise.all([
      ...Array.from({ length: 12 }, () => http("POST", "/step", { ...session, action: add })),
      http("POST", "/step", { ...session, action: submit }),
    ]);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const refused = replies.filter((r) =>
      /step budget|episode is over/.test(JSON.stringify(r.body.observation?.content)),
    );
    expect(refused.length).toBeGreaterThanOrEqual(13 - MAX_STEPS);
    expect(replies.some((r) => r.body.reward === 1)).toBe(false);
    const state = await http(
      "GET",
      `/state?episode_id=${session.episode_id}&session_key=${session.session_key}`,
    );
    // Host-side: the environment ran no more adds than the budget allows.
    expect(state.body.snapshot?.count).toBeLessThanOrEqual(MAX_STEPS);
    expect(state.body.reward === 1).toBe(false);
  });

  it("a submit counts as a step: with the budget spent, it is refused, not scored", async () => {
    const reset = await http("POST", "/reset", {});
    const meta = reset.body.observation?.metadata ?? {};
    const session = { episode_id: String(meta.episode_id), session_key: String(meta.session_key) };
    const add = { type: "call_tool", tool_name: "add", arguments: { amount: 1 } };
    for (let i = 0; i < MAX_STEPS - 1; i++) await http("POST", "/step", { ...session, action: add });
    const last = await http("POST", "/step", { ...session, action: add });
    expect(last.body).toMatchObject({ done: true, reward: 0 });
    const submit = await http("POST", "/step", {
      ...session,
      action: { type: "call_tool", tool_name: "submit", arguments: {} },
    });
    expect(submit.body).toMatchObject({ done: true, reward: null });
  });
});

describe("session keys", () => {
  it("refuses an empty or short session_key at reset, and a keyless call never matches a session", async () => {
    const empty = await http("POST", "/reset", { session_key: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.message).toMatch(/session_key/);
    const short = await http("POST", "/reset", { session_key: "abc" });
    expect(short.status).toBe(400);
    const reset = await http("POST", "/reset", {});
    const id = String(reset.body.observation?.metadata?.episode_id);
    const keyless = await http("POST", "/step", {
      episode_id: id,
      action: { type: "call_tool", tool_name: "add", arguments: { amount: 1 } },
    });
    expect(keyless.status).toBe(403);
    const blank = await http("POST", "/step", {
      episode_id: id,
      session_key: "",
      action: { type: "call_tool", tool_name: "add", arguments: { amount: 1 } },
    });
    expect(blank.status).toBe(403);
  });
});
