// Generated environments sleep to simulate latency. Under the lockdown Pyodide's own time.sleep
// failed (it needs the FFI helpers the lockdown empties): it is replaced by a wait the step
// deadline interrupts. Both backends must behave like CPython's time.sleep.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const SOURCE = `
import time

class Clock:
    def nap(self, seconds: float) -> dict:
        """Sleeps, then says for how long."""
        start = time.monotonic()
        time.sleep(seconds)
        return {"slept": time.monotonic() - start}
`;

for (const backend of ["pyodide", "bwrap"] as const) {
  describe(`time.sleep on ${backend}`, () => {
    const runner = createSandboxRunner({
      backend,
      hostInBwrap: "off",
      poolSize: 1,
      spareWorkers: 0,
      stepTimeoutMs: 1_000,
      graceMs: 300,
    });
    afterAll(() => runner.close());

    async function nap(seconds: unknown) {
      const loaded = await runner.load({ source: SOURCE, className: "Clock", initialState: {} });
      if (!loaded.ok) throw new Error(loaded.error.message);
      try {
        return await loaded.value.step("nap", { seconds: seconds as number });
      } finally {
        await loaded.value.close();
      }
    }

    it("sleeps for the time asked", async () => {
      const step = await nap(0.05);
      if (!step.ok) throw new Error(step.error.message);
      expect(step.value.isError).toBe(false);
      expect((step.value.observation as { slept: number }).slept).toBeGreaterThanOrEqual(0.05);
    });

    it("refuses a negative length as CPython does", async () => {
      const step = await nap(-1);
      expect(step.ok && step.value.observation).toMatchObject({
        success: false,
        error: expect.stringContaining("ValueError: sleep length must be non-negative") as unknown,
      });
    });

    it("a sleep past the step limit ends the step with TIMEOUT", async () => {
      const step = await nap(30);
      expect(step.ok ? "ok" : step.error.code).toBe("TIMEOUT");
    });
  });
}
