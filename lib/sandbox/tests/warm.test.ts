// One-time costs are paid before a step's clock runs: in wasm the first datetime.strptime took
// ~400 ms and some imports over a second, which on a loaded machine pushed steps past their 2 s
// limit and ended episodes with reward 0. Checked without timing: what a tool finds already
// loaded on its first call in a brand-new worker.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const cacheDir = mkdtempSync(join(tmpdir(), "envstudio-warm-"));
// A private cache: the snapshot is built from this checkout's make-snapshot.mjs, then used.
const runner = createSandboxRunner({ hostInBwrap: "off", poolSize: 1, spareWorkers: 0, cacheDir });
afterAll(async () => {
  await runner.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

const SOURCE = [
  "import sys",
  "class Env:",
  "    def __init__(self):",
  "        self.seen = {}",
  "    def first_call(self) -> dict:",
  "        loaded = {name: name in sys.modules for name in ('_strptime', 'difflib', 'zoneinfo')}",
  "        import _strptime",
  "        tables_built = _strptime._TimeRE_cache is not None and len(_strptime._regex_cache) > 0",
  "        import difflib",
  "        return {'loaded': loaded, 'strptime_tables_built': tables_built}",
].join("\n");

let generation = 0;

/** A source of its own each time, so the pool cannot hand back a worker that already ran it. */
async function firstCallInFreshWorker(): Promise<unknown> {
  generation += 1;
  const loaded = await runner.load({
    source: `${SOURCE}\n# ${generation}`,
    className: "Env",
    initialState: {},
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const step = await loaded.value.step("first_call", {});
  await loaded.value.close();
  if (!step.ok) throw new Error(step.error.message);
  return step.value.observation;
}

describe("warm start of a fresh worker", () => {
  it(
    "strptime, zoneinfo and modules a tool imports are ready before the tool's first call",
    { timeout: 180_000 },
    async () => {
      await firstCallInFreshWorker(); // starts the snapshot build; later workers boot from it
      const built = () => readdirSync(cacheDir).some((name) => name.endsWith(".snapshot"));
      for (let i = 0; i < 120 && !built(); i++) await new Promise((r) => setTimeout(r, 1_000));
      expect(built()).toBe(true);
      // The server checks the new file and tells the host its digest a moment after the file
      // appears; a worker that boots in between boots the slow way. The next ones use it.
      let observation = await firstCallInFreshWorker();
      for (let i = 0; i < 20 && !(await runner.stats()).snapshot; i++) {
        await new Promise((r) => setTimeout(r, 250));
        observation = await firstCallInFreshWorker();
      }
      expect((await runner.stats()).snapshot).toBe(true);
      expect(observation).toEqual({
        loaded: { _strptime: true, difflib: true, zoneinfo: true },
        strptime_tables_built: true,
      });
    },
  );
});
