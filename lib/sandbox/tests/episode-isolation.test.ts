// Episodes hosted side by side in one worker (worker sharing, as `envstudio serve` runs them) must
// not reach each other through the harness, and must not share randomness. An attacker episode's
// tool tries every route the harness used to offer to the other episodes — the harness module by
// name or import, gc walks, frames up the stack, the `environment` module — and, when a route
// yields the victim, sets its balance. The evidence is the victim's own state, read through its
// own episode. Randomness: each episode draws from its own seeded generator, so its draws are
// those of the same episode alone, whatever its neighbours draw, and a replay after a neighbour's
// timeout reproduces them.
import { afterAll, describe, expect, it } from "vitest";
import { type Episode, type SandboxRunner, createSandboxRunner } from "../index";

const SOURCE = `
import random, sys

class Bank:
    def __init__(self, config=None):
        self.balance = 0

    def draw(self) -> list:
        """Three draws from the module's random functions."""
        return [random.random(), random.randint(0, 10**9), random.choice("abcdefghij")]

    def spin(self) -> int:
        """Never returns (until the step limit)."""
        while True:
            pass

    def attack(self) -> list:
        """Looks for the other episodes; sets their balance if it finds any."""
        found = []

        def hit(env, how):
            if env is not self and hasattr(env, "balance"):
                env.balance = 1000
                found.append(how)

        def episodes_in(namespace, how):
            for value in list(namespace.values()):
                if isinstance(value, dict):
                    for ep in list(value.values()):
                        if isinstance(ep, dict) and "env" in ep:
                            hit(ep["env"], how)

        attempts = {
            "sys.modules harness": lambda: episodes_in(vars(sys.modules["harness"]), "sys.modules"),
            "import harness": lambda: episodes_in(vars(__import__("harness")), "import"),
            "gc walk": lambda: [hit(o, "gc") for o in __import__("gc").get_objects() if type(o).__name__ == "Bank"],
            "sys._getframe": lambda: self._walk(sys._getframe(), hit, "getframe"),
            "traceback frame": lambda: self._from_traceback(hit),
            "generator frame": lambda: self._walk((lambda: (yield))().gi_frame, hit, "generator"),
            "environment module": lambda: [hit(v, "environment") for v in vars(sys.modules["environment"]).values()],
        }
        refused = []
        for name, attempt in attempts.items():
            try:
                attempt()
            except Exception as e:
                refused.append(name + ": " + type(e).__name__)
        return [found, refused]

    def _from_traceback(self, hit):
        try:
            raise RuntimeError("x")
        except RuntimeError as e:
            self._walk(e.__traceback__.tb_frame, hit, "traceback")

    def _walk(self, frame, hit, how):
        while frame is not None:
            for scope in (frame.f_locals, frame.f_globals):
                for value in list(scope.values()):
                    if isinstance(value, dict):
                        for ep in list(value.values()):
                            if isinstance(ep, dict) and "env" in ep:
                                hit(ep["env"], how)
            frame = frame.f_back
`;

const MODES = [
  { backend: "pyodide", hostInBwrap: "off" },
  { backend: "bwrap", hostInBwrap: "off" },
] as const;

function sharedRunner(backend: "pyodide" | "bwrap"): SandboxRunner {
  // One worker: every episode of the source is hosted in it, side by side.
  return createSandboxRunner({
    backend,
    hostInBwrap: "off",
    poolSize: 1,
    spareWorkers: 0,
    workersPerSource: 1,
    leaseTimeoutMs: 30_000,
    stepTimeoutMs: 1_000,
    graceMs: 300,
  });
}

async function load(runner: SandboxRunner, seed?: number): Promise<Episode> {
  const loaded = await runner.load({
    source: SOURCE,
    className: "Bank",
    initialState: { balance: 0 },
    ...(seed === undefined ? {} : { seed }),
  });
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value;
}

async function observe(episode: Episode, tool: string): Promise<unknown> {
  const step = await episode.step(tool, {});
  if (!step.ok) throw new Error(`${step.error.code}: ${step.error.message}`);
  return step.value.observation;
}

for (const { backend } of MODES) {
  describe(`episodes side by side (${backend})`, () => {
    const runner = sharedRunner(backend);
    afterAll(() => runner.close());

    it("an episode finds no other episode through the harness, gc, frames or the environment module", async () => {
      const victims = [await load(runner), await load(runner)];
      const attacker = await load(runner);
      const [found, refused] = (await observe(attacker, "attack")) as [string[], string[]];
      expect(found).toEqual([]);
      expect(refused.map((r) => r.split(":")[0])).toEqual([
        "sys.modules harness",
        "import harness",
        "gc walk",
        "sys._getframe",
        "traceback frame",
        "generator frame",
      ]);
      for (const victim of victims) {
        const state = await victim.state();
        expect(state).toEqual({ ok: true, value: { balance: 0 } });
        await victim.close();
      }
      await attacker.close();
    });

    it("each episode draws from its own seeded generator, whatever its neighbours draw", async () => {
      const alone = createSandboxRunner({ backend, hostInBwrap: "off", poolSize: 1, spareWorkers: 0 });
      let expected: unknown[];
      try {
        const solo = await load(alone, 7);
        expected = [await observe(solo, "draw"), await observe(solo, "draw"), await observe(solo, "draw")];
        await solo.close();
      } finally {
        await alone.close();
      }
      const mine = await load(runner, 7);
      const noisy = await load(runner, 99);
      const draws: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        await observe(noisy, "draw");
        draws.push(await observe(mine, "draw"));
        await observe(noisy, "draw");
      }
      expect(draws).toEqual(expected);
      await mine.close();
      await noisy.close();
    });

    it("a neighbour's timeout ends only that episode; the replayed one keeps its draws", async () => {
      const control = await load(runner, 11);
      const expected = [await observe(control, "draw"), await observe(control, "draw")];
      await control.close();
      const victim = await load(runner, 11);
      const spinner = await load(runner, 12);
      const first = await observe(victim, "draw");
      const timedOut = await spinner.step("spin", {});
      expect(timedOut.ok ? "ok" : timedOut.error.code).toBe("TIMEOUT");
      // The worker died with the spinner: the victim is replayed on a fresh one and goes on.
      const second = await observe(victim, "draw");
      expect([first, second]).toEqual(expected);
      await victim.close();
      await spinner.close();
    });
  });
}

// With an interpreter per episode (ENVSTUDIO_SERVE_ISOLATION=episode), even a deliberate walk of the
// class hierarchy finds no other episode: there is none in the interpreter.
const WALK = `
class Bank:
    def __init__(self, config=None):
        self.balance = 0

    def touch(self) -> int:
        """Its own call: what its class does now."""
        return self.balance

    def attack(self) -> int:
        """Patches every other Bank class it can find so that their next call sets the balance."""
        def rich(this):
            this.balance = 1000
            return this.balance
        hit = 0
        for cls in object.__subclasses__():
            if cls.__name__ == "Bank" and cls is not type(self):
                cls.touch = rich
                hit += 1
        return hit
`;

for (const { backend } of MODES) {
  describe(`an interpreter per episode (${backend})`, () => {
    const runner = createSandboxRunner({
      backend,
      hostInBwrap: "off",
      poolSize: 3,
      spareWorkers: 1,
      workersPerSource: 0,
      maxEpisodesPerWorker: 1,
    });
    afterAll(() => runner.close());

    it("a class-hierarchy walk finds no other episode's class", async () => {
      const open = async () => {
        const loaded = await runner.load({ source: WALK, className: "Bank", initialState: { balance: 0 } });
        if (!loaded.ok) throw new Error(loaded.error.message);
        return loaded.value;
      };
      const victim = await open();
      const attacker = await open();
      expect(await observe(attacker, "attack")).toBe(0);
      expect(await observe(victim, "touch")).toBe(0);
      expect(await victim.state()).toEqual({ ok: true, value: { balance: 0 } });
      await victim.close();
      await attacker.close();
    });
  });
}
