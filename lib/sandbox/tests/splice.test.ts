// Repair patches replace whole definitions, parsed with `ast` in the sandbox and never run.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const runner = createSandboxRunner();
afterAll(() => runner.close());

const CHECK = `import math

def helper(x):
    return x

def check_func(final_state):
    # reads the wrong field
    return final_state.get("a") == 1
`;
const ENV = `class Env:
    def __init__(self, init_config=None):
        self.items = {}

    @staticmethod
    def norm(x):
        return x

    def add(self, key):
        """Adds a key."""
        return {"ok": True}
`;

async function splice(source: string, patch: string, className: string | null, allowed: string[] | null) {
  const result = await runner.splice({ source, patch, className, allowed });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("splice", () => {
  it("replaces exactly the patched function and keeps every other line", async () => {
    const result = await splice(
      CHECK,
      'def check_func(final_state):\n    return final_state.get("b") == 1\n',
      null,
      null,
    );
    expect(result).toEqual({
      ok: true,
      replaced: ["check_func"],
      source: CHECK.replace(
        '    # reads the wrong field\n    return final_state.get("a") == 1',
        '    return final_state.get("b") == 1',
      ),
    });
  });

  it("replaces a method at the class's indentation, given bare or inside the class", async () => {
    const bare = await splice(
      ENV,
      'def add(self, key):\n    """Adds a key."""\n    self.items[key] = True\n    return {"ok": True}\n',
      "Env",
      ["add"],
    );
    const wrapped = await splice(
      ENV,
      'class Env:\n    def add(self, key):\n        """Adds a key."""\n        self.items[key] = True\n        return {"ok": True}\n',
      "Env",
      ["add"],
    );
    const expected = ENV.replace(
      '        return {"ok": True}',
      '        self.items[key] = True\n        return {"ok": True}',
    );
    expect(bare).toEqual({ ok: true, replaced: ["add"], source: expected });
    expect(wrapped).toEqual(bare);
  });

  it.each([
    ["does not parse", "def check_func(final_state:\n    return 1\n", "does not parse: line 1"],
    ["has no definition", "return True\n", "line 1 is not a function definition"],
    [
      "adds an import",
      "import os\ndef check_func(final_state):\n    return 2\n",
      "line 1 is not a function definition",
    ],
    ["defines a new name", "def other(final_state):\n    return 2\n", "`other` is not defined in the item"],
    [
      "defines it twice",
      "def check_func(s):\n    return 1\ndef check_func(s):\n    return 2\n",
      "more than once",
    ],
    ["changes nothing", "def helper(x):\n    return x\n", "identical to the current ones"],
  ])("refuses a patch that %s, with the reason", async (_what, patch, reason) => {
    const result = await splice(CHECK, patch, null, null);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.refusal).toContain(reason);
  });

  it("refuses a definition it was not asked to change", async () => {
    const result = await splice(ENV, "def norm(x):\n    return x.strip()\n", "Env", ["add"]);
    expect(!result.ok && result.refusal).toContain(
      "you redefined `norm`, which you were not asked to change",
    );
  });

  it("never runs the patch", async () => {
    const result = await splice(
      CHECK,
      "def check_func(final_state, x=__import__('os').system('exit 3')):\n    return 1\n",
      null,
      null,
    );
    expect(result.ok).toBe(true);
  });
});
