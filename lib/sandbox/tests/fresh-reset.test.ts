// A worker reused for the same source prepares it once (parse, tool schemas, validators, code
// object) but every episode runs the module body into a fresh namespace and builds a fresh
// instance: class attributes and module globals mutated by one episode's tools must be pristine
// in the next episode on the same worker. Both backends (each reuses its worker/process per source).
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const SOURCE = `
import json

REGISTRY = {"calls": 0}
COUNTER = 0

class Env:
    shared = []
    limit = 3

    def __init__(self):
        self.items = []

    def mutate(self, tag: str) -> dict:
        """Mutates class attributes and module globals, and reports what it found first."""
        global COUNTER
        seen = {"shared": list(Env.shared), "limit": Env.limit, "registry": dict(REGISTRY),
                "counter": COUNTER, "items": list(self.items)}
        Env.shared.append(tag)
        Env.limit = 99
        REGISTRY["calls"] += 1
        COUNTER += 1
        self.items.append(tag)
        # Evidence kept in the interpreter across episodes (a stdlib module outlives the
        # environment's module): how many episodes this worker ran, and whether the tool's code
        # object is the very same one, i.e. the source was compiled once.
        json._episodes = getattr(json, "_episodes", 0) + 1
        codes = json.__dict__.setdefault("_codes", [])
        codes.append(Env.mutate.__code__)
        seen["episodes_on_worker"] = json._episodes
        seen["same_code_object"] = codes[0] is codes[-1]
        return seen
`;

const MODES = [
  { backend: "pyodide", hostInBwrap: "off" },
  { backend: "bwrap", hostInBwrap: "off" },
] as const;

for (const { backend, hostInBwrap } of MODES) {
  describe(`fresh episode on a reused ${backend} worker`, () => {
    const runner = createSandboxRunner({ backend, hostInBwrap, poolSize: 1, spareWorkers: 0 });
    afterAll(() => runner.close());

    async function episode(tag: string): Promise<unknown> {
      const loaded = await runner.load({ source: SOURCE, className: "Env", initialState: {} });
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.tools().map((t) => t.function.name)).toEqual(["mutate"]);
      const bad = await loaded.value.step("mutate", { tag: 7 });
      expect(bad).toMatchObject({
        ok: true,
        value: { isError: true, observation: { error_type: "invalid_arguments" } },
      });
      const step = await loaded.value.step("mutate", { tag });
      await loaded.value.close();
      if (!step.ok) throw new Error(step.error.message);
      return step.value.observation;
    }

    it("sees pristine class attributes and module globals, compiled once", { timeout: 120_000 }, async () => {
      const pristine = { shared: [], limit: 3, registry: { calls: 0 }, counter: 0, items: [] };
      expect(await episode("first")).toEqual({ ...pristine, episodes_on_worker: 1, same_code_object: true });
      expect(await episode("second")).toEqual({ ...pristine, episodes_on_worker: 2, same_code_object: true });
      expect(await episode("third")).toEqual({ ...pristine, episodes_on_worker: 3, same_code_object: true });
    });
  });
}
