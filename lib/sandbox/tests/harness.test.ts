// Harness semantics (instantiation, dispatch, validation, state, diffs, checks), run through the
// unsandboxed python3 backend for speed; differential.test.ts shows Pyodide behaves the same.
import { afterAll, describe, expect, it } from "vitest";
import { createUnsandboxedNativeRunner } from "../testing";
import { SHOP_CLASS, SHOP_SOURCE, shopState } from "../fixtures";
import type { Episode } from "../index";

const runner = createUnsandboxedNativeRunner({ spareWorkers: 1 });
afterAll(() => runner.close());

async function load(
  source: string,
  className = "Env",
  initialState: Record<string, unknown> = {},
): Promise<Episode> {
  const episode = await runner.load({ source, className, initialState });
  if (!episode.ok) throw new Error(`load failed: ${episode.error.message}`);
  return episode.value;
}

async function state(episode: Episode) {
  const result = await episode.state();
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("instantiation conventions", () => {
  it("EnvScaler: constructs with {} and assigns each initial-state key", async () => {
    const ep = await load(
      "class Env:\n    def __init__(self, config):\n        self.got = config\n        self.items = []\n",
      "Env",
      { items: [1, 2], extra: "x" },
    );
    expect(await state(ep)).toEqual({ got: {}, items: [1, 2], extra: "x" });
  });

  it("falls back to a no-argument constructor", async () => {
    const ep = await load("class Env:\n    def __init__(self):\n        self.a = 1\n", "Env", { b: 2 });
    expect(await state(ep)).toEqual({ a: 1, b: 2 });
  });

  it("uses _load_scenario(state) when the class defines it", async () => {
    const source =
      "class Env:\n    def __init__(self):\n        self.count = 0\n    def _load_scenario(self, scenario):\n        self.count = len(scenario['items'])\n";
    const ep = await load(source, "Env", { items: [1, 2, 3] });
    expect(await state(ep)).toEqual({ count: 3 });
  });

  it("does not let the environment mutate the caller's initial state", async () => {
    const initial = { items: [1] };
    const ep = await load("class Env:\n    def add(self):\n        self.items.append(2)\n", "Env", initial);
    await ep.step("add", {});
    expect(initial).toEqual({ items: [1] });
  });
});

describe("dispatch and validation", () => {
  const source = [
    "class Env:",
    "    limit = 3",
    "    def __init__(self):",
    "        self.log = []",
    "        self.helper = len",
    "    def add(self, item: str, times: int = 1, tags: list[str] | None = None) -> dict:",
    "        self.log.extend([item] * times)",
    "        return {'success': True, 'count': len(self.log)}",
    "    def fail(self):",
    "        raise KeyError('nope')",
    "    def leave(self):",
    "        raise SystemExit(3)",
    "    def noisy(self):",
    "        print('hello'); print('x' * 100000)",
    "        return None",
    "    def _secret(self):",
    "        return 'private'",
    "    @property",
    "    def size(self):",
    "        return len(self.log)",
  ].join("\n");

  it("lists only public methods as tools", async () => {
    const ep = await load(source);
    expect(
      ep
        .tools()
        .map((t) => t.function.name)
        .sort(),
    ).toEqual(["add", "fail", "leave", "noisy"]);
  });

  it("runs a tool and returns its JSON result and state diff", async () => {
    const ep = await load(source);
    const step = await ep.step("add", { item: "a", times: 2 });
    expect(step).toMatchObject({
      ok: true,
      value: { observation: { success: true, count: 2 }, isError: false },
    });
    if (step.ok)
      expect(step.value.diff).toEqual({
        added: [
          { path: ["log", 0], value: "a" },
          { path: ["log", 1], value: "a" },
        ],
        removed: [],
        changed: [],
      });
  });

  it.each([
    ["_secret", {}, "unknown_tool"],
    ["size", {}, "unknown_tool"],
    ["helper", {}, "unknown_tool"],
    ["missing", {}, "unknown_tool"],
    ["add", {}, "invalid_arguments"],
    ["add", { item: "a", bogus: 1 }, "invalid_arguments"],
    ["add", { item: 5 }, "invalid_arguments"],
    ["add", { item: "a", times: true }, "invalid_arguments"],
    ["add", { item: "a", times: 1.5 }, "invalid_arguments"],
    ["add", { item: "a", tags: [1] }, "invalid_arguments"],
    ["fail", {}, "exception"],
    ["leave", {}, "exception"],
  ])("turns %s(%j) into an error observation (%s)", async (name, args, kind) => {
    const ep = await load(source);
    const step = await ep.step(name, args);
    expect(step.ok).toBe(true);
    if (!step.ok) return;
    expect(step.value.isError).toBe(true);
    expect(step.value.observation).toMatchObject({ success: false, error_type: kind });
    expect(step.value.diff).toEqual({ added: [], removed: [], changed: [] });
    // the episode is still usable
    expect(await ep.step("add", { item: "b", tags: null })).toMatchObject({
      ok: true,
      value: { isError: false },
    });
  });

  it("captures stdout into a bounded buffer", async () => {
    const ep = await load(source);
    const step = await ep.step("noisy", {});
    expect(step.ok && step.value.stdout.startsWith("hello\n")).toBe(true);
    expect(step.ok && step.value.stdout.length).toBeLessThan(70_000);
    expect(step.ok && step.value.stdout.endsWith("[output truncated]")).toBe(true);
  });

  it("rejects malformed step input without reaching the sandbox", async () => {
    const ep = await load(source);
    // @ts-expect-error: arguments must be an object
    expect(await ep.step("add", ["a"])).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    expect(await ep.step("", {})).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
  });
});

describe("state serialization and diffs", () => {
  it("serializes sets, objects, non-finite floats, cycles and hides private attributes", async () => {
    const source = [
      "import math",
      "class Point:",
      "    def __init__(self):",
      "        self.x, self.y, self._hidden = 1, 2, 3",
      "class Env:",
      "    def __init__(self):",
      "        self.tags = {'b', 'a', 'c'}",
      "        self.point = Point()",
      "        self.ratio = math.inf",
      "        self.pair = (1, 'two')",
      "        self.keys = {1: 'one', None: 'none'}",
      "        self.func = len",
      "        self._private = 'x'",
      "        self.me = [1]",
      "        self.me.append(self.me)",
    ].join("\n");
    expect(await state(await load(source))).toEqual({
      tags: ["a", "b", "c"],
      point: { x: 1, y: 2 },
      ratio: "inf",
      pair: [1, "two"],
      keys: { "1": "one", null: "none" },
      func: "<built-in function len>",
      me: [1, "<cycle>"],
    });
  });

  it("reports added, removed and changed paths from the initial state", async () => {
    const source =
      "class Env:\n    def go(self):\n        self.users['u1']['name'] = 'B'\n        del self.users['u2']\n        self.users['u3'] = {'name': 'C'}\n        self.queue.pop()\n";
    const ep = await load(source, "Env", { users: { u1: { name: "A" }, u2: { name: "X" } }, queue: [1, 2] });
    await ep.step("go", {});
    expect(await ep.diff()).toEqual({
      ok: true,
      value: {
        added: [{ path: ["users", "u3"], value: { name: "C" } }],
        removed: [
          { path: ["users", "u2"], value: { name: "X" } },
          { path: ["queue", 1], value: 2 },
        ],
        changed: [{ path: ["users", "u1", "name"], old: "A", new: "B" }],
      },
    });
  });
  it("diffs each step against the previous one, leaving untouched attributes out", async () => {
    const source =
      "class Env:\n    def bump(self):\n        self.counts['a'] += 1\n        return self.counts['a']\n    def read(self):\n        return len(self.big)\n";
    const big = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, { v: i }]));
    const ep = await load(source, "Env", { counts: { a: 1 }, big });
    const first = await ep.step("bump", {});
    expect(first).toMatchObject({ ok: true, value: { observation: 2 } });
    expect(first.ok && first.value.diff).toEqual({
      added: [],
      removed: [],
      changed: [{ path: ["counts", "a"], old: 1, new: 2 }],
    });
    const query = await ep.step("read", {});
    expect(query.ok && query.value.diff).toEqual({ added: [], removed: [], changed: [] });
  });

  it("reports a value whose JSON type changed although Python calls it equal (1 -> True)", async () => {
    // Steps skip attributes that still compare equal (==), which cannot see 1 -> True; the
    // state, diff and check ops serialize everything, so what a reward sees is exact.
    const source = "class Env:\n    def flip(self):\n        self.flags['on'] = True\n";
    const ep = await load(source, "Env", { flags: { on: 1, n: 1 } });
    await ep.step("flip", {});
    expect(await state(ep)).toEqual({ flags: { on: true, n: 1 } });
    expect(await ep.diff()).toEqual({
      ok: true,
      value: { added: [], removed: [], changed: [{ path: ["flags", "on"], old: 1, new: true }] },
    });
    expect(
      await ep.check(["def check_func(final_state):\n    return final_state['flags']['on'] is True"]),
    ).toEqual({
      ok: true,
      value: [{ passed: true }],
    });
  });
});

describe("checks", () => {
  const checks = [
    "def check_func(final_state):\n    return len(final_state['orders']) == 1 and initial_state['orders'] == {}",
    "def check_func(final_state):\n    return 1",
    "def check_func(final_state):\n    raise ValueError('bad')",
    "def check_func(final_state:\n",
    "x = 1",
    "def check_func(final_state):\n    final_state['orders'].clear()\n    initial_state['users'].clear()\n    return False",
    "def check_func(final_state):\n    return len(final_state['orders']) == 1 and len(initial_state['users']) == 3",
  ];
  const expected = [
    { passed: true },
    { error: "check_func must return a bool, got int" },
    { error: "ValueError: bad" },
    { error: expect.stringContaining("SyntaxError") as string },
    { error: "the check does not define check_func(final_state)" },
    { passed: false },
    { passed: true },
  ];

  it("runs each check with initial_state as a global, isolated from the others", async () => {
    const ep = await load(SHOP_SOURCE, SHOP_CLASS, shopState());
    await ep.step("place_order", { user_id: "U1", product_ids: ["P1"] });
    expect(await ep.check(checks)).toEqual({ ok: true, value: expected });
  });

  it("runs checks over arbitrary states without an environment", async () => {
    const result = await runner.runChecks({
      checks,
      initialState: shopState(),
      finalState: { ...shopState(), orders: { O1: {} } },
    });
    expect(result).toEqual({ ok: true, value: expected });
  });

  it("rejects malformed check input", async () => {
    // @ts-expect-error: checks must be strings
    expect(await runner.runChecks({ checks: [1], initialState: {}, finalState: {} })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });
});

describe("load errors", () => {
  it.each([
    ["class Env:\n    def f(self:\n", "Env", "USER_CODE_ERROR", /SyntaxError at line 2/],
    ["class Other: pass\n", "Env", "USER_CODE_ERROR", /class 'Env' is not defined/],
    [
      "class Env:\n    def __init__(self):\n        raise RuntimeError('broken')\n",
      "Env",
      "USER_CODE_ERROR",
      /RuntimeError: broken/,
    ],
    ["raise ImportError('x')\nclass Env: pass\n", "Env", "USER_CODE_ERROR", /ImportError: x/],
    ["Env = 3\n", "Env", "USER_CODE_ERROR", /not defined at the top level/],
    ["", "Env", "INVALID_REQUEST", /source/],
    ["class Env: pass", "not a name", "INVALID_REQUEST", /identifier/],
  ])("load(%j, %s) -> %s", async (source, className, code, message) => {
    const result = await runner.load({ source, className, initialState: {} });
    expect(result).toMatchObject({ ok: false, error: { code, retryable: false } });
    if (!result.ok) expect(result.error.message).toMatch(message);
  });

  it("rejects a non-object initial state", async () => {
    const notAnObject = [1] as unknown as Record<string, unknown>; // what an unchecked caller might send
    expect(
      await runner.load({ source: "class Env: pass", className: "Env", initialState: notAnObject }),
    ).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });

  it("restricts tools when load({tools}) is given", async () => {
    const episode = await runner.load({
      source: SHOP_SOURCE,
      className: SHOP_CLASS,
      initialState: shopState(),
      tools: ["get_user"],
    });
    if (!episode.ok) throw new Error(episode.error.message);
    expect(episode.value.tools().map((t) => t.function.name)).toEqual(["get_user"]);
    expect(await episode.value.step("place_order", { user_id: "U1", product_ids: [] })).toMatchObject({
      ok: true,
      value: { isError: true, observation: { error_type: "unknown_tool" } },
    });
  });

  it("refuses calls after close", async () => {
    const ep = await load("class Env:\n    def f(self):\n        return 1\n");
    await ep.close();
    expect(await ep.step("f", {})).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
  });
});
