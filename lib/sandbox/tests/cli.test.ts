// `envstudio env tools|replay`, through the CLI entry (in-process) and once through bin/.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { SHOP_CLASS, SHOP_SOURCE, shopState } from "../fixtures";

const dir = mkdtempSync(join(tmpdir(), "envstudio-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const EPISODES = [
  JSON.stringify({
    id: "ok",
    source: SHOP_SOURCE,
    class_name: SHOP_CLASS,
    init: shopState(),
    calls: [
      { name: "place_order", arguments: { user_id: "U1", product_ids: ["P1"] } },
      { name: "nope", arguments: {} },
    ],
    checks: [
      "def check_func(final_state):\n    return len(final_state['orders']) == 1",
      "def check_func(final_state):\n    return 'x'",
    ],
  }),
  "{not json",
  JSON.stringify({ id: "syntax", source: "class X(:\n", class_name: "X", calls: [] }),
  JSON.stringify({
    id: "loop",
    source: "class X:\n    def f(self):\n        while True:\n            pass\n",
    class_name: "X",
    calls: [{ name: "f", arguments: {} }],
  }),
  JSON.stringify({
    id: "attack",
    source: "class X:\n    def f(self):\n        import js\n        return str(js.process.env)\n",
    class_name: "X",
    calls: [{ name: "f" }],
  }),
  JSON.stringify({ id: 6, source: "class X: pass" }),
  JSON.stringify({
    id: "last",
    source:
      "class X:\n    def __init__(self):\n        self.n = 0\n    def inc(self) -> int:\n        self.n += 1\n        return self.n\n",
    class_name: "X",
    calls: [{ name: "inc" }, { name: "inc" }],
  }),
].join("\n");

describe("envstudio env replay", () => {
  it.each(["pyodide", "bwrap"])(
    "prints one result per line, in input order, isolating failures (%s)",
    async (backend) => {
      const result = await run(
        "env",
        "replay",
        "--episodes",
        file(`episodes-${backend}.jsonl`, EPISODES),
        "--backend",
        backend,
        "--concurrency",
        "3",
      );
      expect(result.code).toBe(0);
      const lines = result.out.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.id)).toEqual(["ok", null, "syntax", "loop", "attack", 6, "last"]);
      expect(lines[0]).toMatchObject({
        observations: [
          { success: true, order_id: "O000001" },
          { success: false, error_type: "unknown_tool" },
        ],
        state_diffs: [
          { changed: [{ path: ["products", "P1", "stock"], old: 1000, new: 999 }] },
          { added: [], removed: [], changed: [] },
        ],
        final_state: { orders: { O000001: { user_id: "U1" } } },
        check_results: [{ passed: true }, { error: "check_func must return a bool, got str" }],
      });
      expect(lines[0]).not.toHaveProperty("error");
      expect(lines[1]).toMatchObject({
        error: { code: "INVALID_REQUEST", message: "line 2: not valid JSON" },
      });
      expect(lines[2]).toMatchObject({ error: { code: "USER_CODE_ERROR" }, final_state: null });
      expect(lines[3]).toMatchObject({ error: { code: "TIMEOUT" } });
      expect(lines[4]).toMatchObject({
        observations: [{ success: false, error_type: "exception" }],
        final_state: {},
      });
      expect(lines[5]).toMatchObject({
        error: { code: "INVALID_REQUEST", message: expect.stringContaining("class_name") as string },
      });
      expect(lines[6]).toMatchObject({ observations: [1, 2], final_state: { n: 2 } });
    },
  );

  it.each([
    [["env", "replay"], /missing --episodes/],
    [["env", "replay", "--episodes", join(dir, "missing.jsonl")], /episodes file not found/],
    [["env", "replay", "--episodes", "x", "--bogus", "1"], /Unknown option/],
    [["env", "tools", "--class", "X"], /missing --source/],
    [["env", "tools", "--source", join(dir, "nope.py"), "--class", "X"], /source file not found/],
    [["env", "frobnicate"], /unknown command 'frobnicate'/],
  ])("rejects %j with a clear message", async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it("rejects a bad --concurrency or --backend", async () => {
    const episodes = file("one.jsonl", "{}\n");
    expect((await run("env", "replay", "--episodes", episodes, "--concurrency", "0")).err).toMatch(
      /--concurrency/,
    );
    expect((await run("env", "replay", "--episodes", episodes, "--backend", "native")).err).toMatch(
      /--backend/,
    );
  });
});

describe("envstudio env tools", () => {
  it("prints the tool schemas as a JSON array", async () => {
    const result = await run(
      "env",
      "tools",
      "--source",
      file("env.py", SHOP_SOURCE),
      "--class",
      SHOP_CLASS,
      "--backend",
      "bwrap",
    );
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.out) as { type: string; function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual([
      "get_user",
      "search_products",
      "place_order",
      "cancel_order",
      "explode",
    ]);
  });

  it("fails with the syntax error for broken source", async () => {
    const result = await run(
      "env",
      "tools",
      "--source",
      file("bad.py", "class X(:\n"),
      "--class",
      "X",
      "--backend",
      "bwrap",
    );
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/USER_CODE_ERROR: SyntaxError at line 1/);
  });

  it("works through the npm bin entry with the default backend", () => {
    const out = execFileSync(
      process.execPath,
      ["bin/envstudio.mjs", "env", "tools", "--source", file("bin.py", SHOP_SOURCE), "--class", SHOP_CLASS],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect((JSON.parse(out) as unknown[]).length).toBe(5);
  });
});
