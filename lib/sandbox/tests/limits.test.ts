// Limits on the default (Pyodide) backend: every limit hit is a typed Result, the episode that
// hit it ends, and the pool and host keep serving. No timing thresholds: only outcomes.
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SHOP_CLASS, SHOP_SOURCE, envWithTool, shopState } from "../fixtures";
import { type Episode, createSandboxRunner } from "../index";

const runner = createSandboxRunner({
  backend: "pyodide",
  poolSize: 2,
  spareWorkers: 1,
  loadTimeoutMs: 1_500,
  stepTimeoutMs: 3_000,
  checkTimeoutMs: 1_000,
  leaseTimeoutMs: 30_000,
  maxOutputBytes: 256 * 1024,
  maxLogBytes: 1024,
  memoryMiB: 256,
});
afterAll(() => runner.close());

/** Descendants of this process (Linux /proc), to find the sandbox host to kill. The host may
 * run inside bubblewrap, whose monitor process would otherwise be the one we hit. */
function descendantPids(): number[] {
  const parents = new Map<number, number>();
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      parents.set(Number(p), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const isDescendant = (pid: number, hops = 0): boolean => {
    const parent = parents.get(pid);
    return parent === process.pid || (parent !== undefined && hops < 10 && isDescendant(parent, hops + 1));
  };
  return [...parents.keys()].filter((pid) => isDescendant(pid));
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

// Open episodes hold a worker each; close them so later tests find a free one.
const opened: Episode[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
});

async function loadTool(body: string) {
  const loaded = await runner.load({ source: envWithTool(body), className: "Env", initialState: {} });
  if (!loaded.ok) throw new Error(loaded.error.message);
  opened.push(loaded.value);
  return loaded.value;
}

describe("time limits", () => {
  it("times out a slow constructor at load", async () => {
    const source = "class Env:\n    def __init__(self):\n        while True:\n            pass\n";
    expect(await runner.load({ source, className: "Env", initialState: {} })).toMatchObject({
      ok: false,
      error: { code: "TIMEOUT", retryable: false },
    });
  });

  it("times out a step and ends the episode", async () => {
    const episode = await loadTool("while True:\n    pass");
    expect(await episode.step("run", {})).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(await episode.step("run", {})).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST", message: expect.stringContaining("ended after TIMEOUT") as string },
    });
    expect(await episode.state()).toMatchObject({ ok: false });
  });

  it("times out check functions", async () => {
    const result = await runner.runChecks({
      checks: ["def check_func(s):\n    while True:\n        pass"],
      initialState: {},
      finalState: {},
    });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
  });
});

describe("memory and output limits", () => {
  it("reports MEMORY when the wasm heap cap is reached", async () => {
    const episode = await loadTool("x = []\nwhile True:\n    x.append(bytearray(8 * 10**6))");
    expect(await episode.step("run", {})).toMatchObject({ ok: false, error: { code: "MEMORY" } });
  });

  it("rejects a result above the size cap before it leaves the sandbox, and keeps the episode", async () => {
    const episode = await loadTool(
      "self.data['n'] = self.data.get('n', 0) + 1\nreturn 'x' * 300_000 if self.data['n'] == 1 else 'small'",
    );
    expect(await episode.step("run", {})).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
    expect(await episode.step("run", {})).toMatchObject({ ok: true, value: { observation: "small" } });
  });

  it("rejects a state above the size cap", async () => {
    const episode = await loadTool("self.data['blob'] = 'y' * 300_000\nreturn 'ok'");
    expect(await episode.step("run", {})).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
    expect(await episode.state()).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
  });

  it("bounds captured stdout", async () => {
    const episode = await loadTool("for i in range(5000):\n    print('line', i)\nreturn 1");
    const step = await episode.step("run", {});
    expect(step.ok && step.value.stdout.length).toBeLessThanOrEqual(1024 + 30);
    expect(step.ok && step.value.stdout).toContain("[output truncated]");
  });
});

describe("resilience", () => {
  it("runs episodes concurrently and serializes calls within one", async () => {
    const episodes = await Promise.all(
      [0, 1].map(() =>
        runner.load({ source: SHOP_SOURCE, className: SHOP_CLASS, initialState: shopState() }),
      ),
    );
    const [a, b] = episodes.map((e) => {
      if (!e.ok) throw new Error(e.error.message);
      return e.value;
    });
    const orders = await Promise.all(
      [1, 2, 3].map(() => a!.step("place_order", { user_id: "U1", product_ids: ["P1"] })),
    );
    expect(orders.map((o) => o.ok && (o.value.observation as { order_id: string }).order_id)).toEqual([
      "O000001",
      "O000002",
      "O000003",
    ]);
    expect(await b!.step("get_user", { user_id: "U9" })).toMatchObject({
      ok: true,
      value: { observation: { success: false } },
    });
    await Promise.all([a!.close(), b!.close()]);
    // a closed episode refuses further calls
    expect(await a!.step("get_user", { user_id: "U1" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });

  it("restarts the sandbox host after it dies", async () => {
    const before = await runner.load({
      source: SHOP_SOURCE,
      className: SHOP_CLASS,
      initialState: shopState(),
    });
    if (!before.ok) throw new Error(before.error.message);
    const hostPid = descendantPids().find((pid) => {
      const argv = cmdline(pid).split("\0");
      return /\/node$/.test(argv[0] ?? "") && argv.some((arg) => arg.endsWith("sandbox-host.mjs"));
    });
    if (!hostPid) throw new Error("no sandbox host process found");
    // SANDBOX_HOST_BWRAP=auto with bubblewrap present: the host runs in its own pid namespace.
    const nsPids = /NSpid:\s+(.*)/
      .exec(readFileSync(`/proc/${hostPid}/status`, "utf8"))?.[1]
      ?.trim()
      .split(/\s+/);
    expect(nsPids?.length).toBe(2);
    process.kill(hostPid, "SIGKILL");
    // The episode in flight moves to the new host (recovering-lease.ts) and goes on.
    const survivor = await before.value.step("get_user", { user_id: "U1" });
    expect(survivor).toMatchObject({ ok: true, value: { isError: false } });
    await before.value.close();
    const after = await runner.load({
      source: SHOP_SOURCE,
      className: SHOP_CLASS,
      initialState: shopState(),
    });
    if (!after.ok) throw new Error(after.error.message);
    expect(await after.value.step("get_user", { user_id: "U1" })).toMatchObject({
      ok: true,
      value: { isError: false },
    });
    await after.value.close();
  });

  it("reports pool statistics", async () => {
    const stats = await runner.stats();
    expect(stats.backend).toBe("pyodide");
    expect(stats.workers).toBeGreaterThan(0);
    expect(stats.rssBytes).toBeGreaterThan(0);
  });
});
