// Worker sharing (shared-workers.ts; `envstudio serve`): episodes of one source hosted side by
// side in one worker. Each must behave exactly as if it had the worker to itself — its own module,
// class attributes and globals — and one episode's timeout must not cost another its run.
// Both backends: Pyodide pipelines calls on the worker's slot, python3 answers one at a time.
import { afterAll, describe, expect, it } from "vitest";
import { type Episode, createSandboxRunner } from "../index";

const SOURCE = `
LOG = []

class Counter:
    total = 0

    def __init__(self):
        self.count = 0

    def add(self, n: int) -> dict:
        """Adds n to this instance, the class attribute and the module list."""
        self.count += n
        Counter.total += n
        LOG.append(n)
        return {"count": self.count, "class_total": Counter.total, "log": list(LOG)}

    def spin(self) -> int:
        """Never returns (until the step limit)."""
        n = 0
        while True:
            n += 1
`;

const MODES = [
  { backend: "pyodide", hostInBwrap: "off" },
  { backend: "bwrap", hostInBwrap: "off" },
] as const;

for (const { backend, hostInBwrap } of MODES) {
  describe(`shared ${backend} worker`, () => {
    // One worker in the pool: without sharing the second load would wait for it (lease timeout).
    const runner = createSandboxRunner({
      backend,
      hostInBwrap,
      poolSize: 1,
      spareWorkers: 0,
      workersPerSource: 1,
      leaseTimeoutMs: 30_000,
      stepTimeoutMs: 1_000,
      graceMs: 300,
    });
    afterAll(() => runner.close());

    async function load(): Promise<Episode> {
      const loaded = await runner.load({ source: SOURCE, className: "Counter", initialState: {} });
      if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
      return loaded.value;
    }

    async function add(episode: Episode, n: number) {
      const step = await episode.step("add", { n });
      if (!step.ok) throw new Error(`${step.error.code}: ${step.error.message}`);
      return step.value.observation;
    }

    it(
      "hosts several episodes of a source in one worker, each with its own module and instance",
      { timeout: 120_000 },
      async () => {
        const episodes = await Promise.all(Array.from({ length: 6 }, () => load()));
        // Interleaved, concurrent steps: every episode sees only its own additions.
        const replies = await Promise.all(episodes.flatMap((e, i) => [add(e, i + 1), add(e, 10 * (i + 1))]));
        episodes.forEach((_, i) => {
          const n = i + 1;
          expect(replies[2 * i]).toEqual({ count: n, class_total: n, log: [n] });
          expect(replies[2 * i + 1]).toEqual({ count: 11 * n, class_total: 11 * n, log: [n, 10 * n] });
        });
        const states = await Promise.all(episodes.map((e) => e.state()));
        expect(states.map((s) => s.ok && s.value.count)).toEqual([11, 22, 33, 44, 55, 66]);
        await Promise.all(episodes.map((e) => e.close()));
        // A later episode on the same worker starts pristine.
        const next = await load();
        expect(await add(next, 5)).toEqual({ count: 5, class_total: 5, log: [5] });
        await next.close();
      },
    );

    it(
      "moves the other episodes of a worker that one episode's timeout took down, state intact",
      { timeout: 120_000 },
      async () => {
        const [victim, bystander] = await Promise.all([load(), load()]);
        expect(await add(bystander, 2)).toEqual({ count: 2, class_total: 2, log: [2] });
        const spun = await victim.step("spin", {});
        expect(spun).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
        // The bystander's worker is gone; its episode is replayed on a fresh one and goes on.
        expect(await add(bystander, 3)).toEqual({ count: 5, class_total: 5, log: [2, 3] });
        const after = await victim.step("add", { n: 1 });
        expect(after.ok).toBe(false);
        await Promise.all([victim.close(), bystander.close()]);
      },
    );
  });
}
