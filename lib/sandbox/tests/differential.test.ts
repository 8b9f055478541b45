// Differential test: the same environments and calls through hardened Pyodide and through
// native python3 (CPython 3.14 in wasm vs the host's 3.11) must give identical results.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SHOP_CLASS, SHOP_SOURCE, shopState } from "../fixtures";
import { type SandboxRunner, createSandboxRunner } from "../index";
import { createUnsandboxedNativeRunner } from "../testing";

const pyodide = createSandboxRunner({ backend: "pyodide", poolSize: 1, spareWorkers: 1 });
const native = createUnsandboxedNativeRunner({ spareWorkers: 0 });
afterAll(() => Promise.all([pyodide.close(), native.close()]));

type Call = { name: string; arguments: Record<string, unknown> };
type Case = {
  label: string;
  source: string;
  className: string;
  init: Record<string, unknown>;
  calls: Call[];
  checks: string[];
};

const LEDGER = [
  "from dataclasses import dataclass, field",
  "from collections import OrderedDict",
  "@dataclass",
  "class Entry:",
  "    amount: float",
  "    tags: set = field(default_factory=set)",
  "class Ledger:",
  "    def __init__(self):",
  "        self.entries = OrderedDict()",
  "        self.total = 0.0",
  "    def _load_scenario(self, scenario):",
  "        for key, amount in scenario['entries'].items():",
  "            self.entries[key] = Entry(amount, {'seed'})",
  "        self.total = sum(e.amount for e in self.entries.values())",
  "    def add(self, key: str, amount: float, tags: list[str] = []) -> dict:",
  "        self.entries[key] = Entry(amount, set(tags))",
  "        self.total = round(self.total + amount, 2)",
  "        return {'success': True, 'total': self.total, 'ratio': amount / self.total if self.total else float('nan')}",
  "    def remove(self, key: str) -> dict:",
  "        entry = self.entries.pop(key)",
  "        self.total = round(self.total - entry.amount, 2)",
  "        return {'removed': entry}",
  "    def summary(self) -> str:",
  "        print('summarizing', len(self.entries))",
  "        return ', '.join(f'{k}={v.amount:.2f}' for k, v in sorted(self.entries.items()))",
].join("\n");

const SAMPLES_DIR = "prisma/seed/samples";
const SampleScenario = z.object({
  task_id: z.string(),
  init_config: z.record(z.string(), z.unknown()),
  gold_calls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  checklist_with_func: z.array(z.object({ check_func: z.string() })),
});

/** The product's seeded sample environments (prisma/seed/samples), with their gold calls. */
function sampleCases(): Case[] {
  if (!existsSync(SAMPLES_DIR)) return [];
  return readdirSync(SAMPLES_DIR).flatMap((name) => {
    const dir = join(SAMPLES_DIR, name);
    if (!existsSync(join(dir, "environment.py"))) return [];
    const source = readFileSync(join(dir, "environment.py"), "utf8");
    const className = z
      .object({ env_class_name: z.string() })
      .parse(JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"))).env_class_name;
    const scenarios = z
      .array(SampleScenario)
      .parse(JSON.parse(readFileSync(join(dir, "scenarios.json"), "utf8")));
    return scenarios.map((s) => ({
      label: `${name}/${s.task_id}`,
      source,
      className,
      init: s.init_config,
      calls: s.gold_calls,
      checks: s.checklist_with_func.map((c) => c.check_func),
    }));
  });
}

const CASES: Case[] = [
  {
    label: "shop fixture",
    source: SHOP_SOURCE,
    className: SHOP_CLASS,
    init: shopState(),
    calls: [
      { name: "get_user", arguments: { user_id: "U2" } },
      { name: "search_products", arguments: { query: "MUG", max_results: 2 } },
      { name: "place_order", arguments: { user_id: "U1", product_ids: ["P1", "P3"], shipping: "express" } },
      { name: "place_order", arguments: { user_id: "U1", product_ids: ["P1"], shipping: "drone" } },
      { name: "cancel_order", arguments: { order_id: "O000001" } },
      { name: "explode", arguments: {} },
      { name: "get_user", arguments: { user_id: 7 } },
      { name: "_internal", arguments: {} },
    ],
    checks: [
      "def check_func(final_state):\n    return final_state['orders']['O000001']['status'] == 'cancelled'",
      "def check_func(s):\n    return s['missing']",
    ],
  },
  {
    label: "ledger with dataclasses, sets, NaN and _load_scenario",
    source: LEDGER,
    className: "Ledger",
    init: { entries: { a: 10, b: 5.5 } },
    calls: [
      { name: "add", arguments: { key: "c", amount: 2.25, tags: ["x", "b", "a"] } },
      { name: "add", arguments: { key: "z", amount: -17.75 } },
      { name: "remove", arguments: { key: "a" } },
      { name: "remove", arguments: { key: "nope" } },
      { name: "summary", arguments: {} },
    ],
    checks: [
      "def check_func(final_state):\n    return final_state['total'] == 0.0 - 10 + 10 and 'a' not in final_state['entries']",
    ],
  },
];

async function replay(runner: SandboxRunner, c: Case) {
  const episode = await runner.load({ source: c.source, className: c.className, initialState: c.init });
  if (!episode.ok) return { loadError: episode.error };
  const steps = [];
  for (const call of c.calls) steps.push(await episode.value.step(call.name, call.arguments));
  const result = {
    tools: episode.value.tools(),
    steps,
    state: await episode.value.state(),
    diff: await episode.value.diff(),
    checks: await episode.value.check(c.checks),
  };
  await episode.value.close();
  return result;
}

describe("Pyodide and native python3 agree", () => {
  it.each([...CASES, ...sampleCases()].map((c) => [c.label, c] as const))("%s", async (_label, c) => {
    const [fromPyodide, fromNative] = await Promise.all([replay(pyodide, c), replay(native, c)]);
    expect(fromPyodide).not.toHaveProperty("loadError");
    expect(fromPyodide).toEqual(fromNative);
  });

  it("agrees on analysis and checks without an environment", async () => {
    const request = {
      checks: ["def check_func(s):\n    return s == initial_state", "def check_func(s): return None"],
      initialState: { a: [1, { b: 2 }] },
      finalState: { a: [1, { b: 2 }] },
    };
    expect(await pyodide.runChecks(request)).toEqual(await native.runChecks(request));
    const analysis = { source: `${LEDGER}\nimport socket\n`, className: "Ledger" };
    expect(await pyodide.analyze(analysis)).toEqual(await native.analyze(analysis));
  });
});
