// runChecksBatch: the same checks over many state pairs in few calls. Each case must get exactly
// what runChecks gives it alone — fresh copies of its states, its own errors — and a batch in
// which one case runs into the time limit is rerun case by case, so only that case times out.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const CHECKS = [
  // Mutates the states it was given: the next check (and case) must not see it.
  `def check_func(final_state):
    final_state["count"] = -1
    initial_state["count"] = -1
    return True`,
  `def check_func(final_state):
    return final_state["count"] > initial_state["count"]`,
  `def check_func(final_state):
    if final_state.get("hang"):
        while True:
            pass
    return final_state["count"] % 2 == 0`,
];

const MODES = [
  { backend: "pyodide", hostInBwrap: "off" },
  { backend: "bwrap", hostInBwrap: "off" },
] as const;

for (const { backend, hostInBwrap } of MODES) {
  describe(`runChecksBatch (${backend})`, () => {
    const runner = createSandboxRunner({
      backend,
      hostInBwrap,
      poolSize: 1,
      spareWorkers: 0,
      checkTimeoutMs: 1_000,
      graceMs: 300,
    });
    afterAll(() => runner.close());

    it(
      "gives every case what runChecks gives it alone, in case order, across chunks",
      { timeout: 120_000 },
      async () => {
        const cases = Array.from({ length: 150 }, (_, i) => ({
          initialState: { count: 1 },
          finalState: { count: i },
        }));
        const batch = await runner.runChecksBatch({ checks: CHECKS, cases });
        if (!batch.ok) throw new Error(batch.error.message);
        expect(batch.value).toHaveLength(150);
        for (const i of [0, 1, 2, 63, 64, 127, 128, 149]) {
          const alone = await runner.runChecks({ checks: CHECKS, ...cases[i]! });
          expect(alone.ok && batch.value[i]).toEqual(alone.ok && alone.value);
          expect(batch.value[i]).toEqual([{ passed: true }, { passed: i > 1 }, { passed: i % 2 === 0 }]);
        }
      },
    );

    it(
      "reruns a batch that hit the time limit case by case: only the slow case times out",
      { timeout: 120_000 },
      async () => {
        const cases = [
          { initialState: { count: 0 }, finalState: { count: 2 } },
          { initialState: { count: 0 }, finalState: { count: 4, hang: true } },
          { initialState: { count: 0 }, finalState: { count: 3 } },
        ];
        const batch = await runner.runChecksBatch({ checks: CHECKS, cases });
        if (!batch.ok) throw new Error(batch.error.message);
        // As runChecks alone: the slow case's call times out; the others are answered in full.
        const alone = await runner.runChecks({ checks: CHECKS, ...cases[1]! });
        expect(alone).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
        const timedOut: unknown = { error: expect.stringMatching(/^TIMEOUT: /) as unknown };
        expect(batch.value).toEqual([
          [{ passed: true }, { passed: true }, { passed: true }],
          [timedOut, timedOut, timedOut],
          [{ passed: true }, { passed: true }, { passed: false }],
        ]);
      },
    );

    it("refuses malformed input before anything runs", async () => {
      expect(await runner.runChecksBatch({ checks: CHECKS, cases: [] })).toMatchObject({
        ok: false,
        error: { code: "INVALID_REQUEST" },
      });
      // @ts-expect-error a case without states
      expect(await runner.runChecksBatch({ checks: "nope", cases: [{}] })).toMatchObject({
        ok: false,
        error: { code: "INVALID_REQUEST" },
      });
    });
  });
}
