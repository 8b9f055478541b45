// Escape battery: every route of docs/sandbox.md's threat model plus resource abuse, against the
// Pyodide backend (host jailed and not) and the bubblewrap backend. Assertions are host-side evidence: no marker file,
// no connection on the loopback listener, no secret (env or file) in any output, and a normal
// environment still works afterwards.
import { randomBytes } from "node:crypto";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, type Server, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOP_CLASS, SHOP_SOURCE, envWithTool, shopState } from "../fixtures";
import { type Episode, type SandboxRunner, createSandboxRunner } from "../index";
import { CHECK_ATTACKS, LOAD_ATTACKS, REALM_ATTACKS, STEP_ATTACKS } from "./attacks";

const ENV_SECRET = `env-secret-${randomBytes(8).toString("hex")}`;
const FILE_SECRET = `file-secret-${randomBytes(8).toString("hex")}`;
// The server's own environment holds a secret; no backend may ever hand it to Python.
process.env.ENVSTUDIO_TEST_SECRET = ENV_SECRET;

const RESOURCE_ATTACKS: { name: string; body: string; expected: string[] }[] = [
  { name: "infinite loop", body: "while True:\n    pass", expected: ["TIMEOUT"] },
  {
    name: "loop swallowing BaseException",
    body: "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
    expected: ["TIMEOUT"],
  },
  {
    name: "deadline timer disabled",
    body: "import signal\ntry:\n    signal.setitimer(signal.ITIMER_REAL, 0)\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\nexcept Exception:\n    pass\nwhile True:\n    pass",
    expected: ["TIMEOUT"],
  },
  {
    name: "memory bomb",
    body: "x = []\nwhile True:\n    x.append(bytearray(8 * 10**6))",
    expected: ["MEMORY"],
  },
  { name: "huge output", body: "return 'x' * 10**7", expected: ["OUTPUT_TOO_LARGE"] },
];

// Pyodide twice: with its host in the bubblewrap jail, and without (machines lacking bubblewrap),
// where every defence must hold on its own.
const MODES = [
  { label: "pyodide, host jailed", backend: "pyodide", hostInBwrap: "on" },
  { label: "pyodide, host not jailed", backend: "pyodide", hostInBwrap: "off" },
  { label: "bwrap", backend: "bwrap", hostInBwrap: "off" },
] as const;
const ALL_STEP_ATTACKS = [...STEP_ATTACKS, ...REALM_ATTACKS];
const ASYNC_WAIT_MS = 300; // payloads scheduled after the call returned get this long per attempt

for (const { label, backend, hostInBwrap } of MODES) {
  describe(`escape battery (${label})`, () => {
    const marker = join(tmpdir(), `envstudio-escape-${backend}-${randomBytes(6).toString("hex")}`);
    const secretFile = join(tmpdir(), `envstudio-secret-${backend}-${randomBytes(6).toString("hex")}`);
    let runner: SandboxRunner;
    let server: Server;
    let port = 0;
    let connections = 0;
    let episode: Episode | null = null;

    const fill = (code: string) =>
      code
        .replaceAll("MARKER", marker)
        .replaceAll("SECRET_FILE", secretFile)
        .replaceAll("PORT", String(port));
    const battery = ALL_STEP_ATTACKS.map(
      (a, i) =>
        `    def attack_${i}(self):\n${fill(a.body)
          .split("\n")
          .map((l) => `        ${l}`)
          .join("\n")}\n`,
    );
    const batterySource = `class Env:\n    def __init__(self):\n        self.data = {}\n\n${battery.join("\n")}`;

    function assertNoEvidence(output: unknown) {
      const text = JSON.stringify(output);
      expect(text).not.toContain("ESCAPED");
      expect(text).not.toContain(ENV_SECRET);
      expect(text).not.toContain(FILE_SECRET);
      expect(existsSync(marker)).toBe(false);
      expect(connections).toBe(0);
    }

    async function batteryEpisode(): Promise<Episode> {
      if (episode) return episode;
      const loaded = await runner.load({ source: batterySource, className: "Env", initialState: {} });
      if (!loaded.ok) throw new Error(`battery environment failed to load: ${loaded.error.message}`);
      episode = loaded.value;
      return episode;
    }

    beforeAll(async () => {
      writeFileSync(secretFile, FILE_SECRET);
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
      runner = createSandboxRunner({
        backend,
        hostInBwrap,
        poolSize: 2,
        spareWorkers: 1,
        memoryMiB: 256,
        stepTimeoutMs: 3_000,
      });
    });

    afterAll(async () => {
      await runner?.close();
      await new Promise((resolve) => server.close(resolve));
      rmSync(secretFile, { force: true });
      rmSync(marker, { force: true });
    });

    it.each(ALL_STEP_ATTACKS.map((a, i) => [a.name, i] as const))(
      "tool attempt: %s",
      async (_name, index) => {
        const result = await (await batteryEpisode()).step(`attack_${index}`, {});
        assertNoEvidence(result);
        await new Promise((resolve) => setTimeout(resolve, ASYNC_WAIT_MS));
        assertNoEvidence(result);
        if (!result.ok) {
          // an attempt may end the episode (e.g. a crash); the next attempt gets a fresh one
          expect(["TIMEOUT", "MEMORY", "USER_CODE_ERROR"]).toContain(result.error.code);
          episode = null;
        }
      },
    );

    it.each(LOAD_ATTACKS.map((a, i) => [i, a] as const))("load-time attempt %i", async (_i, source) => {
      const result = await runner.load({ source: fill(source), className: "Env", initialState: {} });
      assertNoEvidence(result);
      expect(result).toMatchObject({ ok: false, error: { code: "USER_CODE_ERROR" } });
    });

    it.each(CHECK_ATTACKS.map((a, i) => [i, a] as const))("check-function attempt %i", async (_i, check) => {
      const result = await runner.runChecks({ checks: [fill(check)], initialState: {}, finalState: {} });
      assertNoEvidence(result);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (result.ok) expect(result.value[0]).not.toEqual({ passed: true });
    });

    it.each(RESOURCE_ATTACKS.map((a) => [a.name, a] as const))(
      "resource abuse: %s",
      async (_name, attack) => {
        const loaded = await runner.load({
          source: envWithTool(attack.body),
          className: "Env",
          initialState: {},
        });
        if (!loaded.ok) throw new Error(loaded.error.message);
        const result = await loaded.value.step("run", {});
        assertNoEvidence(result);
        expect(result).toMatchObject({
          ok: false,
          error: { code: expect.toBeOneOf(attack.expected) as string },
        });
        await loaded.value.close();
      },
    );

    it("a victim episode survives attempts to crash or wedge the host", async () => {
      const victim = await runner.load({
        source: SHOP_SOURCE,
        className: SHOP_CLASS,
        initialState: shopState(),
      });
      if (!victim.ok) throw new Error(victim.error.message);
      const first = await victim.value.step("place_order", { user_id: "U1", product_ids: ["P1"] });
      expect(first).toMatchObject({ ok: true, value: { observation: { success: true } } });
      for (const body of ["import os\nos.abort()", "import os\nos._exit(1)", "while True:\n    pass"]) {
        const attacker = await runner.load({ source: envWithTool(body), className: "Env", initialState: {} });
        if (attacker.ok) {
          await attacker.value.step("run", {});
          await attacker.value.close();
        }
      }
      const second = await victim.value.step("place_order", { user_id: "U2", product_ids: ["P2"] });
      expect(second).toMatchObject({
        ok: true,
        value: { observation: { success: true, order_id: "O000002" } },
      });
      await victim.value.close();
    });

    it("shows no evidence after waiting for anything scheduled asynchronously", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assertNoEvidence(null);
    });

    it("still runs a normal environment afterwards", async () => {
      const loaded = await runner.load({
        source: SHOP_SOURCE,
        className: SHOP_CLASS,
        initialState: shopState(),
      });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const step = await loaded.value.step("place_order", { user_id: "U1", product_ids: ["P2"] });
      expect(step).toMatchObject({
        ok: true,
        value: { isError: false, observation: { success: true, order_id: "O000001" } },
      });
      assertNoEvidence(step);
      await loaded.value.close();
    });
  });
}
