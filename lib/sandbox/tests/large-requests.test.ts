// Large requests reach Pyodide's Python as UTF-8 bytes through a MEMFS file the worker fills
// (host/harden.mjs, worker.mjs; small ones stay strings). What the checks see must be exactly the
// state that was sent, multi-byte characters included, whichever path a request took; and user
// code that replaces the file cannot feed the harness a request of its own.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

// Text past the 16 KB threshold, with 2-, 3- and 4-byte UTF-8 characters and JSON escapes.
const WIDE = `café ☕ 😀 "quoted" \\ back\nline\t${"ü€𝄞".repeat(3000)}`;
const SMALL = "café ☕ 😀";

/** A check that rebuilds the expected text in Python from code points, so no decoding is shared. */
function expectText(text: string): string {
  const points = JSON.stringify([...text].map((c) => c.codePointAt(0)));
  return `def check_func(final_state):\n    return final_state["text"] == "".join(map(chr, ${points}))`;
}

describe("large requests on Pyodide", () => {
  const runner = createSandboxRunner({
    backend: "pyodide",
    hostInBwrap: "off",
    poolSize: 1,
    spareWorkers: 0,
  });
  afterAll(() => runner.close());

  async function passed(checks: string[], text: string): Promise<unknown[]> {
    const result = await runner.runChecks({ checks, initialState: {}, finalState: { text } });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value;
  }

  it("checks see exactly the text sent, as bytes (large) and as a string (small)", async () => {
    expect(Buffer.byteLength(JSON.stringify({ text: WIDE }))).toBeGreaterThan(16 * 1024);
    expect(await passed([expectText(WIDE)], WIDE)).toEqual([{ passed: true }]);
    expect(await passed([expectText(SMALL)], SMALL)).toEqual([{ passed: true }]);
    // And a wrong expectation still fails: the check compares.
    expect(await passed([expectText(SMALL)], WIDE)).toEqual([{ passed: false }]);
  });

  it("a large source with non-ASCII docstrings loads with its tools described exactly", async () => {
    const methods = Array.from(
      { length: 200 },
      (_, i) =>
        `    def tool_${i}(self) -> dict:\n        """Lists the café's orders ☕ number ${i}."""\n        return {"i": ${i}}\n`,
    ).join("\n");
    const source = `class Cafe:\n    def __init__(self):\n        self.orders = []\n\n${methods}`;
    expect(source.length).toBeGreaterThan(16 * 1024);
    const loaded = await runner.load({ source, className: "Cafe", initialState: {} });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const tool = loaded.value.tools().find((t) => t.function.name === "tool_7");
    expect(tool?.function.description).toBe("Lists the café's orders ☕ number 7.");
    const step = await loaded.value.step("tool_199", {});
    expect(step.ok && step.value.observation).toEqual({ i: 199 });
    await loaded.value.close();
  });

  it("user code that swaps the request file for its own does not change what the harness reads", async () => {
    const swap = [
      "import os",
      "def check_func(final_state):",
      "    path = '/run/envstudio/request'",
      '    forged = \'{"op": "run_checks", "checks": ["def check_func(s):\\\\n    return True"], "initial_state": {}, "final_state": {}}\'',
      "    try:",
      "        os.unlink(path)",
      "    except OSError:",
      "        pass",
      "    with open(path, 'w') as f:",
      "        f.write(forged + ' ' * 20000)",
      "    return True",
    ].join("\n");
    // Same check set, so the same worker serves the next call.
    const checks = [swap, expectText(WIDE)];
    expect(await passed(checks, WIDE)).toEqual([{ passed: true }, { passed: true }]);
    // Had the forged request been read, this would be [{passed: true}] for a single check.
    expect(await passed(checks, `${WIDE}!`)).toEqual([{ passed: true }, { passed: false }]);
  });
});
