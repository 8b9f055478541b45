// Checks that provably only read share one copy of the states (python/readonly.py), or the states
// themselves when they were parsed from the request (run_checks, run_checks_batch); every other
// check gets fresh copies. The verdicts must be exactly those of fresh copies for every check:
// here each battery runs through the real harness (run_checks) and through a reference that
// copies for every check, in the same python3, and the two must agree — with mutating checks
// placed before readers so a misclassified mutator would change a later reader's verdict.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PYTHON_DIR = path.join(import.meta.dirname, "..", "python");
const SAMPLES = path.join(import.meta.dirname, "..", "..", "..", "prisma", "seed", "samples");

// Each mutates final_state or initial_state in a way a naive "no subscript assignment" rule misses.
const MUTATORS = [
  `def check_func(final_state):\n    final_state["orders"].append(1)\n    return True`,
  `def check_func(final_state):\n    list(map(final_state["orders"].append, [1, 2]))\n    return True`,
  `import random\ndef check_func(final_state):\n    random.shuffle(final_state["orders"])\n    return True`,
  `def check_func(final_state):\n    f = final_state["orders"].append\n    f(3)\n    return True`,
  `def check_func(final_state):\n    final_state.update({"count": 99})\n    return True`,
  `def check_func(final_state):\n    initial_state["count"] += 1\n    return True`,
  `def check_func(final_state):\n    final_state.__setitem__("count", 7)\n    return True`,
  `def check_func(final_state):\n    setattr(final_state, "x", 1) if False else final_state.pop("count")\n    return True`,
  `import heapq\ndef check_func(final_state):\n    heapq.heapify(final_state["orders"])\n    return True`,
  `def check_func(final_state):\n    for final_state["count"] in [5]:\n        pass\n    return True`,
  `def check_func(final_state):\n    del final_state["orders"][0]\n    return True`,
  `def check_func(final_state):\n    g = getattr(final_state["orders"], "reverse")\n    g()\n    return True`,
];

const READERS = [
  `def check_func(final_state):\n    return final_state["count"] == 3 and initial_state["count"] == 3`,
  `def check_func(final_state):\n    return final_state["orders"] == [3, 1, 2]`,
  `def check_func(final_state):\n    return sorted(final_state["orders"]) == [1, 2, 3] and len(final_state) == 2`,
  `def check_func(final_state):\n    return all(isinstance(o, int) for o in final_state["orders"]) and type(final_state["count"]) is int`,
];

function sampleChecks(): string[] {
  return readdirSync(SAMPLES).flatMap((dir) => {
    const scenarios = JSON.parse(readFileSync(path.join(SAMPLES, dir, "scenarios.json"), "utf8")) as {
      checklist_with_func: { check_func: string }[];
    }[];
    return scenarios.flatMap((s) => s.checklist_with_func.map((c) => c.check_func));
  });
}

/** Runs python3 with the harness modules: classification, and run_checks vs the reference. */
function python(
  checks: string[],
  state: unknown,
): { readOnly: boolean[]; results: unknown[]; owned: unknown[]; untouched: boolean; reference: unknown[] } {
  const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(PYTHON_DIR)})
import checks as mod
from capture import Capture
from readonly import reads_only
raw = sys.stdin.read()
data = json.loads(raw)
ro = [reads_only(c) for c in data["checks"]]
results = mod.run_checks(data["checks"], data["state"], data["state"], Capture)
# States parsed from a request (owned): readers get them as they are, and they must stay pristine.
initial, final = json.loads(raw)["state"], json.loads(raw)["state"]
owned = mod.run_checks(data["checks"], initial, final, Capture, owned=True)
untouched = initial == data["state"] and final == data["state"]
mod.reads_only = lambda source: False  # the reference: fresh copies for every check
reference = mod.run_checks(data["checks"], data["state"], data["state"], Capture)
print(json.dumps({"readOnly": ro, "results": results, "owned": owned, "untouched": untouched, "reference": reference}))
`;
  const run = spawnSync("python3", ["-I", "-c", script], {
    input: JSON.stringify({ checks, state }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as ReturnType<typeof python>;
}

const STATE = { count: 3, orders: [3, 1, 2] };

describe("read-only checks share one copy of the states", () => {
  it("classifies every mutating check as needing copies", () => {
    expect(python(MUTATORS, STATE).readOnly).toEqual(MUTATORS.map(() => false));
  });

  it("classifies the readers and every seeded sample's checks as read-only", () => {
    const samples = sampleChecks();
    expect(samples.length).toBeGreaterThan(30);
    expect(python([...READERS, ...samples], STATE).readOnly.every(Boolean)).toBe(true);
  });

  it("gives the verdicts fresh copies give, whatever mutates before the readers", () => {
    for (const mutator of MUTATORS) {
      const battery = [...READERS, mutator, ...READERS, mutator, ...READERS];
      const { results, owned, untouched, reference } = python(battery, STATE);
      expect(results).toEqual(reference);
      expect(owned).toEqual(reference);
      expect(untouched).toBe(true);
      // The readers after the mutator still see the pristine state.
      expect(results.slice(-READERS.length)).toEqual(READERS.map(() => ({ passed: true })));
    }
  });
});
