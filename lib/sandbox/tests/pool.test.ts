// Worker reuse and recycling policy of the Pyodide pool, and the snapshot fallback.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { envWithTool } from "../fixtures";
import { type SandboxRunner, createSandboxRunner } from "../index";
import { pyodideDir, snapshotFile } from "../paths";

async function episodeOn(runner: SandboxRunner, source: string): Promise<void> {
  const loaded = await runner.load({ source, className: "Env", initialState: {} });
  if (!loaded.ok) throw new Error(loaded.error.message);
  expect(await loaded.value.step("run", {})).toMatchObject({ ok: true, value: { observation: 42 } });
  await loaded.value.close();
}

const boots = async (runner: SandboxRunner) => (await runner.stats()).readyMs.length;

describe("pool policy", () => {
  // One worker, no spares: every boot is caused by the policy under test.
  const runner = createSandboxRunner({ poolSize: 1, spareWorkers: 0, maxEpisodesPerWorker: 2 });
  afterAll(() => runner.close());
  const first = envWithTool("return 42");
  const second = envWithTool("return 40 + 2");

  it("reuses a worker for the same source, up to maxEpisodesPerWorker", async () => {
    await episodeOn(runner, first);
    expect(await boots(runner)).toBe(1);
    await episodeOn(runner, first); // second episode on the same worker, which then retires
    expect(await boots(runner)).toBe(1);
    await episodeOn(runner, first);
    expect(await boots(runner)).toBe(2);
  });

  it("never runs a different source on a worker that ran other code", async () => {
    await episodeOn(runner, second);
    expect(await boots(runner)).toBe(3);
  });
});

describe("validator workers", () => {
  const runner = createSandboxRunner({
    poolSize: 1,
    spareWorkers: 0,
    maxEpisodesPerWorker: 2,
    maxCheckRunsPerWorker: 6,
  });
  afterAll(() => runner.close());
  const checks = ["def check_func(final_state):\n    return final_state['n'] > 0"];

  it("serve many more check runs than episodes before they are recycled", async () => {
    for (let n = 1; n <= 6; n++) {
      const result = await runner.runChecks({ checks, initialState: {}, finalState: { n } });
      expect(result).toEqual({ ok: true, value: [{ passed: true }] });
    }
    expect(await boots(runner)).toBe(1);
    await runner.runChecks({ checks, initialState: {}, finalState: { n: 7 } });
    expect(await boots(runner)).toBe(2);
  });
});

describe("snapshot fallback", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "envstudio-snapshot-"));
  writeFileSync(snapshotFile(cacheDir, pyodideDir()), "not a pyodide snapshot");
  const runner = createSandboxRunner({ cacheDir, poolSize: 1, spareWorkers: 0 });
  afterAll(async () => {
    await runner.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("boots normally when the cached snapshot is unusable, and stops offering it", async () => {
    await episodeOn(runner, envWithTool("return 42"));
    expect((await runner.stats()).snapshot).toBe(false);
  });
});
