// No check forges another's verdict, on either backend: not by mutating the states it was given
// (through an alias the read-only analysis must not miss), not by replacing what the harness
// copies states with (json), not by patching builtins or modules that later checks use — within
// one call, across calls on the same worker, and from the environment's own code into its
// episode's checks. Each battery pairs an attacker check with a victim check whose honest
// verdict is known; the victim's verdict is the evidence.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const STATE = { items: [1, 2], balance: 5 };

// The victim: true only on the untouched state. Each attacker returns True and tries to flip it.
const VICTIM = `def check_func(final_state):
    return len(final_state["items"]) == 2 and final_state["balance"] == 5 and initial_state["balance"] == 5`;

const ATTACKERS: Record<string, string> = {
  "augmented assignment through an alias": `def check_func(final_state):
    x = final_state["items"]
    x += [3]
    y = final_state
    y |= {"balance": 1000}
    return True`,
  "module-level augmented assignment to initial_state": `initial_state |= {"balance": 1000}
def check_func(final_state):
    return True`,
  "replacing json.loads and the json decoder": `import json, json.decoder
json.loads = lambda *a, **k: {"items": [1, 2, 3], "balance": 1000}
json.JSONDecoder.decode = lambda self, s, *a: {"items": [1, 2, 3], "balance": 1000}
json.decoder.JSONDecoder.raw_decode = lambda self, s, idx=0: ({"items": [], "balance": 1000}, len(s))
def check_func(final_state):
    return True`,
  "patching builtins": `import builtins
builtins.len = lambda x: 99
def check_func(final_state):
    return True`,
  "patching a module later checks import": `import operator
operator.eq = lambda a, b: False
def check_func(final_state):
    return True`,
};

const VICTIM_WITH_MODULE = `import operator
def check_func(final_state):
    return operator.eq(final_state["balance"], 5)`;

for (const backend of ["pyodide", "bwrap"] as const) {
  describe(`check isolation (${backend})`, () => {
    const runner = createSandboxRunner({ backend, hostInBwrap: "off", poolSize: 2, spareWorkers: 0 });
    afterAll(() => runner.close());

    for (const [name, attacker] of Object.entries(ATTACKERS)) {
      it(`${name}: the next check's verdict is its own, in one call and in the next call`, async () => {
        const checks = [attacker, VICTIM, VICTIM_WITH_MODULE];
        const first = await runner.runChecks({ checks, initialState: STATE, finalState: STATE });
        expect(first).toEqual({ ok: true, value: [{ passed: true }, { passed: true }, { passed: true }] });
        // Same check set: the same worker serves the next call.
        const second = await runner.runChecks({
          checks: [VICTIM, VICTIM_WITH_MODULE, attacker],
          initialState: STATE,
          finalState: STATE,
        });
        expect(second.ok && second.value.slice(0, 2)).toEqual([{ passed: true }, { passed: true }]);
        const batch = await runner.runChecksBatch({
          checks,
          cases: [1, 2, 3].map(() => ({ initialState: STATE, finalState: STATE })),
        });
        expect(batch).toEqual({
          ok: true,
          value: [1, 2, 3].map(() => [{ passed: true }, { passed: true }, { passed: true }]),
        });
      });
    }

    it("an environment's code cannot forge its episode's checks, in this episode or the next", async () => {
      const source = `import json, builtins
class Env:
    def __init__(self, config=None):
        pass

    def forge(self) -> bool:
        """Replaces what checks rely on."""
        json.loads = lambda *a, **k: {"items": [1, 2], "balance": 5}
        builtins.len = lambda x: 2
        return True
`;
      const checks = [
        `def check_func(final_state):\n    return len(final_state["items"]) == 2 and final_state["balance"] == 5`,
      ];
      for (let episode = 0; episode < 2; episode++) {
        const loaded = await runner.load({
          source,
          className: "Env",
          initialState: { items: [], balance: 0 },
        });
        if (!loaded.ok) throw new Error(loaded.error.message);
        if (episode === 0) expect((await loaded.value.step("forge", {})).ok).toBe(true);
        expect(await loaded.value.check(checks)).toEqual({ ok: true, value: [{ passed: false }] });
        await loaded.value.close();
      }
    });
  });
}
