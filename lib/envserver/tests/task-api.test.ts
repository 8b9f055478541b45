/**
 * OpenEnv's Task API on envstudio serve, as huggingface/OpenEnv defines it
 * (src/openenv/core/env_server/http_server.py and types.py at commit
 * 434bb1dcf892119b1d7344c7fc1c1459a7da390a, identical to dac82c6c, where it was added; its own test is
 * tests/core/test_task_api.py): the routes and response shapes, FastAPI's error bodies, the walk
 * upstream's runtime validator makes (src/openenv/validation/runtime/discovery.py at 78c6bfe6:
 * splits, then num_tasks as an int, then task 0 and 1 of each split), and a task picked by
 * `reset {"split", "index"}` over HTTP and the WebSocket. Then bad input, each followed by a
 * request that must still succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import type { Catalog, ServedScenario } from "../catalog";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions, wsSession } from "./harness";

let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
let guarded: Awaited<ReturnType<typeof startEnvServer>>;
const TOKEN = "a-task-api-token-for-tests-42";
const base = (s = server) => `http://127.0.0.1:${s.port}`;

/** Three train scenarios and two test ones, interleaved as a dataset may hold them. */
function splitCatalog(): Catalog {
  const [counter] = counterCatalog().scenarios as [ServedScenario];
  const at = (taskId: string, split: "train" | "test"): ServedScenario => ({
    ...counter,
    id: `counter/${taskId}`,
    taskId,
    task: `Task ${taskId}: add 1 to the counter.`,
    split,
  });
  return {
    name: "Counters@v2",
    scenarios: [at("a", "train"), at("b", "test"), at("c", "train"), at("d", "train"), at("e", "test")],
  };
}

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 2 });
  server = await startEnvServer(splitCatalog(), sandbox, loopbackOptions());
  guarded = await startEnvServer(splitCatalog(), sandbox, { ...loopbackOptions(), token: TOKEN });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await guarded?.stop();
  await sandbox?.close();
});

async function call(
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}
const env = encodeURIComponent("Counters@v2");
const spec = (taskId: string, index: number, split: string) => ({
  id: `counter/${taskId}`,
  index,
  split,
  env_id: "counter",
  task_id: taskId,
  task: `Task ${taskId}: add 1 to the counter.`,
});

describe("the Task API's routes and shapes", () => {
  it("lists the environment, its splits and tasks, counts them, and reads one or a range", async () => {
    expect(await call("GET", "/list_environments")).toEqual({ status: 200, body: ["Counters@v2"] });
    // The name is compared case-insensitively; answers spell it as the server does.
    expect(await call("GET", `/${encodeURIComponent("counters@V2")}/splits`)).toEqual({
      status: 200,
      body: [
        { name: "train", type: "train" },
        { name: "test", type: "test" },
      ],
    });
    expect(await call("POST", `/${env}/tasks`, { split: "train" })).toEqual({
      status: 200,
      body: {
        tasks: [spec("a", 0, "train"), spec("c", 1, "train"), spec("d", 2, "train")],
        env_name: "Counters@v2",
      },
    });
    expect(await call("POST", `/${env}/num_tasks`, { split: "test" })).toEqual({
      status: 200,
      body: { num_tasks: 2 },
    });
    expect(await call("POST", `/${env}/task`, { split: "test", index: 1 })).toEqual({
      status: 200,
      body: { task: spec("e", 1, "test") },
    });
    // Python's slice: start inclusive, stop exclusive, negatives from the end, both clamped.
    const range = async (start: number | null | undefined, stop: number | null | undefined) =>
      (
        (await call("POST", `/${env}/task_range`, { split: "train", start, stop })).body as {
          tasks: { id: string }[];
        }
      ).tasks
        .map((t) => t.id.slice(-1))
        .join("");
    expect(await range(0, 2)).toBe("ac");
    expect(await range(1, undefined)).toBe("cd");
    expect(await range(null, null)).toBe("acd");
    expect(await range(-2, 99)).toBe("cd");
    expect(await range(2, 1)).toBe("");
    expect(await range(-99, -1)).toBe("ac");

    const { paths } = (await call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const path of ["/{env_name}/splits", "/{env_name}/tasks", "/{env_name}/task_range"])
      expect(Object.values(paths[path] ?? {})[0]?.tags).toEqual(["Task API"]);
  });

  it("walks as upstream's runtime validator walks it, and a task's index starts its episode", async () => {
    const splits = (await call("GET", `/${env}/splits`)).body as { name: string }[];
    expect(splits.length).toBeLessThanOrEqual(64);
    for (const { name } of splits) {
      const { num_tasks: count } = (await call("POST", `/${env}/num_tasks`, { split: name })).body as {
        num_tasks: number;
      };
      expect(Number.isInteger(count) && count >= 0).toBe(true);
      for (let index = 0; index < Math.min(2, count); index++) {
        const { task } = (await call("POST", `/${env}/task`, { split: name, index })).body as {
          task: { id: string };
        };
        // The trainer's next move: reset on that split and index, over HTTP…
        const reset = (await call("POST", "/reset", { split: name, index })).body as {
          observation: { metadata: { scenario_id: string; episode_id: string; session_key: string } };
        };
        expect(reset.observation.metadata.scenario_id).toBe(task.id);
        const { episode_id: id, session_key: key } = reset.observation.metadata;
        expect((await call("POST", "/close", { episode_id: id, session_key: key })).status).toBe(200);
      }
    }
    // …and over the WebSocket.
    const ws = wsSession(`ws://127.0.0.1:${server.port}/ws`);
    const reply = await ws.send({ type: "reset", data: { split: "test", index: 0 } });
    expect(reply).toMatchObject({
      type: "observation",
      data: { observation: { metadata: { scenario_id: "counter/b" } } },
    });
    ws.close();
    await ws.closed;
    // …and as an MCP episode at its own URL.
    const created = await call("POST", "/mcp/episodes", { split: "train", index: 2 });
    expect(created).toMatchObject({ status: 201, body: { scenario_id: "counter/d" } });
    await fetch(`${base()}${(created.body as { url: string }).url}`, { method: "DELETE" });
    expect(await call("POST", "/mcp/episodes", { split: "train" })).toMatchObject({ status: 400 });
    expect(await call("POST", "/mcp/episodes", { split: "train", index: 9 })).toMatchObject({ status: 404 });
  });
});

describe("bad input gets FastAPI's answers and the server keeps serving", () => {
  it("unknown environment, missing, extra and mistyped fields, bad JSON, unknown split, index out of range", async () => {
    const stillServes = async () =>
      expect(await call("POST", `/${env}/num_tasks`, { split: "train" })).toEqual({
        status: 200,
        body: { num_tasks: 3 },
      });

    expect(await call("GET", "/other_env/splits")).toEqual({
      status: 404,
      body: { detail: "unknown environment 'other_env'" },
    });
    expect(await call("POST", `/${env}/tasks`, {})).toEqual({
      status: 422,
      body: { detail: [{ type: "missing", loc: ["body", "split"], msg: "Field required", input: {} }] },
    });
    expect(await call("POST", `/${env}/num_tasks`, { split: "train", extra: 1 })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: "extra_forbidden",
            loc: ["body", "extra"],
            msg: "Extra inputs are not permitted",
            input: 1,
          },
        ],
      },
    });
    expect(await call("POST", `/${env}/task`, { split: "train", index: "one" })).toMatchObject({
      status: 422,
      body: { detail: [{ type: "int_type", loc: ["body", "index"], input: "one" }] },
    });
    expect(await call("POST", `/${env}/tasks`, { split: 7 })).toMatchObject({
      status: 422,
      body: { detail: [{ type: "string_type", loc: ["body", "split"], input: 7 }] },
    });
    expect(await call("POST", `/${env}/tasks`, "{nope")).toMatchObject({
      status: 422,
      body: { detail: [{ type: "json_invalid" }] },
    });
    await stillServes();

    expect(await call("POST", `/${env}/tasks`, { split: "holdout" })).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining("Invalid split 'holdout'") as unknown },
    });
    for (const index of [3, -1])
      expect(await call("POST", `/${env}/task`, { split: "train", index })).toEqual({
        status: 400,
        body: { detail: "Invalid task index" },
      });
    // The wrong method on a Task API path is no route at all.
    expect((await call("GET", `/${env}/tasks`)).status).toBe(404);
    await stillServes();

    expect(await call("POST", "/reset", { split: "train" })).toMatchObject({ status: 400 });
    expect(
      await call("POST", "/reset", { split: "train", index: 0, scenario_id: "counter/a" }),
    ).toMatchObject({
      status: 400,
    });
    expect(await call("POST", "/reset", { split: "test", index: 2 })).toMatchObject({ status: 404 });
    await stillServes();
  });

  it("is behind the same access rules as every other route", async () => {
    const res = await fetch(`${base(guarded)}/list_environments`);
    expect(res.status).toBe(401);
    const ok = await fetch(`${base(guarded)}/${env}/num_tasks`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ split: "test" }),
    });
    expect(await ok.json()).toEqual({ num_tasks: 2 });
  });
});
