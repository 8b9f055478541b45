// When the sandbox host dies (killed here with SIGKILL, as a V8 fatal error or the OOM killer
// would), the episodes in flight move to a fresh host: their load and steps are replayed and the
// caller sees no error — unless the replay comes out differently (a non-deterministic
// environment), which is reported rather than hidden.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHOP_CLASS, SHOP_SOURCE, envWithTool, shopState } from "../fixtures";
import { createSandboxRunner } from "../index";

const cacheDir = mkdtempSync(join(tmpdir(), "envstudio-recovery-"));
const runner = createSandboxRunner({ hostInBwrap: "off", poolSize: 3, spareWorkers: 1, cacheDir });
afterAll(async () => {
  await runner.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** SIGKILLs this runner's sandbox host (its command line names the private cache dir). */
function killHost(): number {
  const pids = execFileSync("pgrep", ["-f", `sandbox-host.mjs`], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter((pid) => {
      try {
        return execFileSync("cat", [`/proc/${pid}/cmdline`], { encoding: "utf8" }).includes(cacheDir);
      } catch {
        return false;
      }
    });
  for (const pid of pids) process.kill(Number(pid), "SIGKILL");
  return pids.length;
}

describe("episodes survive the sandbox host dying", () => {
  it("replays episodes in flight on a fresh host and goes on", { timeout: 120_000 }, async () => {
    const episodes = await Promise.all(
      [0, 1].map(async () => {
        const loaded = await runner.load({
          source: SHOP_SOURCE,
          className: SHOP_CLASS,
          initialState: shopState(),
        });
        if (!loaded.ok) throw new Error(loaded.error.message);
        return loaded.value;
      }),
    );
    for (const episode of episodes) {
      expect(await episode.step("place_order", { user_id: "U1", product_ids: ["P1"] })).toMatchObject({
        ok: true,
      });
      expect(await episode.step("place_order", { user_id: "U2", product_ids: ["P2"] })).toMatchObject({
        ok: true,
      });
    }
    expect(killHost()).toBe(1);
    const [a, b] = await Promise.all(
      episodes.map((episode) => episode.step("place_order", { user_id: "U3", product_ids: ["P3"] })),
    );
    expect(a).toMatchObject({ ok: true, value: { observation: { success: true, order_id: "O000003" } } });
    expect(b).toMatchObject({ ok: true, value: { observation: { success: true, order_id: "O000003" } } });
    const state = await episodes[0]!.state();
    expect(state.ok && Object.keys(state.value.orders as object)).toEqual(["O000001", "O000002", "O000003"]);
    await Promise.all(episodes.map((episode) => episode.close()));
    const checks = await runner.runChecks({
      checks: ["def check_func(final_state):\n    return final_state['n'] == 1"],
      initialState: {},
      finalState: { n: 1 },
    });
    expect(checks).toMatchObject({ ok: true, value: [{ passed: true }] });
  });

  it("reports a replay that comes out differently instead of hiding it", { timeout: 120_000 }, async () => {
    const loaded = await runner.load({
      source: envWithTool("import time\nself.data['x'] = time.perf_counter_ns()\nreturn self.data['x']"),
      className: "Env",
      initialState: {},
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(await loaded.value.step("run", {})).toMatchObject({ ok: true });
    expect(killHost()).toBe(1);
    const after = await loaded.value.step("run", {});
    expect(after).toMatchObject({ ok: false, error: { code: "SANDBOX_UNAVAILABLE" } });
    expect(!after.ok && after.error.message).toMatch(/different results/);
    await loaded.value.close();
  });
});
