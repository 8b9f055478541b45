// `act` is a step without its state diff (what a trainer's episode uses). Skipping the per-step
// snapshot must not change what the episode reports afterwards: the state, the diff from the
// initial state and the checks are exact whether the steps were taken with `step` or `act`, on
// both backends; an unknown tool or invalid arguments are answered as `step` answers them.
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";

const SOURCE = `
class Shop:
    def __init__(self):
        self.stock = {}
        self.flag = 1

    def sell(self, item: str, count: int) -> dict:
        """Sells from stock."""
        self.stock[item] = self.stock[item] - count
        return {"success": True, "left": self.stock[item]}

    def swap_flag(self) -> dict:
        """Replaces the integer flag with an equal boolean (== cannot see this change)."""
        self.flag = True
        return {"success": True}
`;
const INITIAL = { stock: { pen: 5, ink: 2 }, flag: 1 };
const CHECKS = [
  "def check_func(final_state):\n    return final_state['stock']['pen'] == 2",
  "def check_func(final_state):\n    return final_state['flag'] is True",
];

const MODES = [
  { backend: "pyodide", hostInBwrap: "off" },
  { backend: "bwrap", hostInBwrap: "off" },
] as const;

for (const { backend, hostInBwrap } of MODES) {
  describe(`act on ${backend}`, () => {
    const runner = createSandboxRunner({ backend, hostInBwrap, poolSize: 2, spareWorkers: 0 });
    afterAll(() => runner.close());

    async function load() {
      const loaded = await runner.load({ source: SOURCE, className: "Shop", initialState: INITIAL });
      if (!loaded.ok) throw new Error(loaded.error.message);
      return loaded.value;
    }

    it("answers the tool's observation without a diff", async () => {
      const episode = await load();
      const acted = await episode.act("sell", { item: "pen", count: 1 });
      expect(acted).toEqual({
        ok: true,
        value: { observation: { success: true, left: 4 }, isError: false, stdout: "", stderr: "" },
      });
      await episode.close();
    });

    it("leaves the state, the diff and the checks exact, as steps with diffs do", async () => {
      const acting = await load();
      const stepping = await load();
      for (const episode of [acting, stepping]) {
        const call = (name: string, args: Record<string, unknown>) =>
          episode === acting ? episode.act(name, args) : episode.step(name, args);
        expect((await call("sell", { item: "pen", count: 1 })).ok).toBe(true);
        expect((await call("sell", { item: "pen", count: 2 })).ok).toBe(true);
        expect((await call("swap_flag", {})).ok).toBe(true);
      }
      const [actedState, steppedState] = [await acting.state(), await stepping.state()];
      expect(actedState).toEqual({ ok: true, value: { stock: { pen: 2, ink: 2 }, flag: true } });
      expect(actedState).toEqual(steppedState);
      expect(await acting.diff()).toEqual(await stepping.diff());
      expect(await acting.diff()).toMatchObject({
        ok: true,
        value: {
          changed: [
            { path: ["stock", "pen"], old: 5, new: 2 },
            { path: ["flag"], old: 1, new: true },
          ],
        },
      });
      const checked = await acting.check(CHECKS);
      expect(checked).toEqual(await stepping.check(CHECKS));
      expect(checked).toMatchObject({ ok: true, value: [{ passed: true }, { passed: true }] });
      await acting.close();
      await stepping.close();
    });

    it("answers an unknown tool and invalid arguments as a step does", async () => {
      const episode = await load();
      expect(await episode.act("restock", {})).toMatchObject({
        ok: true,
        value: { isError: true, observation: { error_type: "unknown_tool" } },
      });
      expect(await episode.act("sell", { item: "pen", count: "many" })).toMatchObject({
        ok: true,
        value: { isError: true, observation: { error_type: "invalid_arguments" } },
      });
      expect(await episode.state()).toEqual({ ok: true, value: INITIAL });
      await episode.close();
    });
  });
}
